"""citetracer's version, in a module of its own so every layer can name it without importing the front end."""

from __future__ import annotations

__version__ = "0.1.0"
