"""mirror stage of the citetracer pipeline (see DESIGN.md)."""

from __future__ import annotations

from collections.abc import Iterable

from citetracer.store.api import StoreAPI
from citetracer.store.claims import doi_prefix_kind, with_kinds


def progress_key(source: str) -> str:
    return f"ingest:{source}"


def declare_doi_prefixes(store: StoreAPI, source: str, prefixes: Iterable[str]) -> list[str]:
    """Declare `source` complete for every DOI under these prefixes registered before its snapshot date
    (store/claims.py), e.g. an ACL Anthology mirror of every volume for 10.18653/v1: the memory stage
    then answers "no such DOI" for one it lacks. Only a mirror of everything under the prefix may say so.
    ValueError, before anything is written, for what is not a DOI prefix."""
    kinds = [doi_prefix_kind(p) for p in prefixes]
    if kinds:
        key = f"complete_ids:{source}"
        store.set_meta(key, with_kinds(store.meta_value(key), kinds))
        if not store.source_dates().get(source):
            store.set_source_date(source)
    return kinds
