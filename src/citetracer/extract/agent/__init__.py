"""The Parser Agent: the hook that lets an LLM repair a draft record (repair.py) and its LLM implementation
(parser_agent.py)."""
