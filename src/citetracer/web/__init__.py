"""`citetracer serve`: the web app, a front end over the one pipeline (needs the `web` extra).

`app.py` the routes (pages, JSON API, /healthz), `uploads.py` what a submission holds,
`jobs.py` the jobs' ids, folders and live state, `workers.py` the bounded pool that runs
the pipeline's Checker, `results.py` the reports written by the report writers `check`
uses, `security.py` headers, body and rate limits, CSRF; `pages.py` the form and progress
pages; `server.py` runs it all on uvicorn.
"""
