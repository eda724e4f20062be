"""Records rendered exactly as each real service renders them (shapes from recorded replies)."""

from __future__ import annotations

import hashlib
import re
from html import escape
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from tests.fakeweb.corpus import Record, digest


def split_name(name: str) -> tuple[str, str]:
    given, _, family = name.rpartition(" ")
    return given, family or name


def page_range(pages: str | None) -> tuple[str | None, str | None]:
    """First and last page of a range ("740-755", "740--755"); an article number is a first page alone."""
    if not pages:
        return None, None
    parts = re.split(r"\s*(?:-+|\u2013)\s*", pages.strip(), maxsplit=1)
    return parts[0] or None, (parts[1] if len(parts) > 1 else "") or None


def details(r: Record, names: dict[str, str]) -> dict[str, str]:
    """The record's publication details under the service's own field names (absent ones left out)."""
    return {key: value for field, key in names.items() if (value := getattr(r, field))}


#: Crossref's work types for the record types of the corpus (anything else: a proceedings article).
CROSSREF_TYPES = {
    "article": "journal-article",
    "preprint": "posted-content",
    "book": "book",
    "incollection": "book-chapter",
    "inbook": "book-chapter",
    "book-chapter": "book-chapter",
    "phdthesis": "dissertation",
    "dissertation": "dissertation",
}


def crossref_dates(r: Record) -> dict[str, Any]:
    """`issued` (the earlier of print and online, as Crossref computes it), `published` and the
    print/online dates the record holds; a record without them is issued in its year."""
    dated = {k: v for k, v in (("published-print", r.published_print), ("published-online", r.published_online)) if v}
    if dated:
        first = min(dated.values())
        out: dict[str, Any] = {k: {"date-parts": [v]} for k, v in dated.items()}
        return {"issued": {"date-parts": [first]}, "published": {"date-parts": [first]}, **out}
    parts = [[r.year]] if r.year else [[None]]
    return {"issued": {"date-parts": parts}, **({"published": {"date-parts": parts}} if r.year else {})}


def crossref_work(r: Record) -> dict[str, Any]:
    short = r.short_venue or r.venue
    # Crossref's `event` is the conference of a proceedings paper: its name and, when deposited, its city.
    event = {"name": r.venue_full or r.venue or "", "location": r.location} if r.location else None
    return {
        "indexed": {"date-parts": [[2026, 6, 6]]},
        "publisher": r.publisher or "Fake Publisher",
        **details(r, {"pages": "page", "volume": "volume", "issue": "issue"}),
        **({"event": event} if event else {}),
        "DOI": r.doi,
        "type": CROSSREF_TYPES.get(r.type or "", "proceedings-article"),
        "title": [r.title],
        "author": [
            {"given": g, "family": f, "sequence": "first" if i == 0 else "additional", "affiliation": []}
            for i, (g, f) in enumerate(split_name(a) for a in r.authors)
        ],
        "container-title": [r.venue_full or r.venue] if (r.venue_full or r.venue) else [],
        "short-container-title": [short] if short else [],
        **crossref_dates(r),
        "URL": f"https://doi.org/{r.doi}",
        "prefix": (r.doi or "").split("/")[0],
        "source": "Crossref",
    }


def csl_json(r: Record) -> dict[str, Any]:
    return {
        "type": "article-journal" if r.type == "article" else "paper-conference",
        "id": r.doi,
        "DOI": r.doi,
        "URL": f"https://doi.org/{r.doi}",
        "title": r.title,
        "author": [{"given": g, "family": f} for g, f in (split_name(a) for a in r.authors)],
        "container-title": r.venue_full or r.venue or "",
        "container-title-short": r.venue or "",
        "publisher": r.publisher or "Fake Publisher",
        **details(r, {"pages": "page", "volume": "volume", "issue": "issue", "location": "event-place"}),
        "issued": {"date-parts": [[r.year]]},
    }


#: OpenAlex's work types for the record types of the corpus (anything else: an article).
OPENALEX_TYPES = {
    "preprint": "preprint",
    "book": "book",
    "incollection": "book-chapter",
    "inbook": "book-chapter",
    "book-chapter": "book-chapter",
    "phdthesis": "dissertation",
    "dissertation": "dissertation",
    "review": "review",
}


def openalex_work(r: Record) -> dict[str, Any]:
    first, last = page_range(r.pages)
    source = openalex_location_source(r) if r.venue else None
    return {
        "id": f"https://openalex.org/W{int(digest(r.rid, 9), 16)}",
        "doi": f"https://doi.org/{r.doi}" if r.doi else None,
        "title": r.title,
        "display_name": r.title,
        "publication_year": r.year,
        "type": OPENALEX_TYPES.get(r.type or "", "article"),
        "authorships": [
            {
                "author_position": "first" if i == 0 else "middle",
                "author": {"id": None, "display_name": a},
                "raw_author_name": a,
            }
            for i, a in enumerate(r.authors)
        ],
        "is_authors_truncated": r.authors_truncated,
        "primary_location": {"landing_page_url": r.url, "source": source},
        "ids": {
            "openalex": f"https://openalex.org/W{int(digest(r.rid, 9), 16)}",
            **({"doi": f"https://doi.org/{r.doi}"} if r.doi else {}),
        },
        "biblio": {"volume": r.volume, "issue": r.issue, "first_page": first, "last_page": last},
    }


def openalex_location_source(r: Record) -> dict[str, Any]:
    """The source of a work's primary location: its venue, and the publisher as OpenAlex's host organization."""
    source: dict[str, Any] = {
        "display_name": r.venue_full or r.venue,
        "type": r.venue_type or ("journal" if r.type == "article" else "conference"),
        "host_organization": None,
        "host_organization_name": r.publisher,
    }
    if r.publisher:
        source["host_organization"] = f"https://openalex.org/P{int(digest(r.publisher, 8), 16)}"
    return source


def openalex_source(name: str) -> dict[str, Any]:
    """One OpenAlex source (a journal, a conference, a repository), as /sources answers (a subset of its fields)."""
    kind = "conference" if re.search(r"conference|symposium|proceedings|workshop", name, re.I) else "journal"
    return {
        "id": f"https://openalex.org/S{int(hashlib.sha1(name.encode()).hexdigest()[:8], 16)}",
        "display_name": name,
        "abbreviated_title": None,
        "alternate_titles": [],
        "type": kind,
        "issn_l": None,
        "works_count": 100,
    }


def s2_paper(r: Record) -> dict[str, Any]:
    ext: dict[str, Any] = {"CorpusId": int(digest(r.rid, 7), 16)}
    if r.doi:
        ext["DOI"] = r.doi.upper() if not r.doi.startswith("10.48550") else r.doi
    if r.arxiv_id:
        ext["ArXiv"] = r.arxiv_id
    if r.dblp_key:
        ext["DBLP"] = r.dblp_key
    pid = digest("s2" + r.rid, 40)
    venue = r.venue_full or r.venue or ""
    place = None
    if venue:
        kind = "journal" if r.type in ("article", "preprint") else "conference"
        place = {
            "id": f"{digest('v' + venue, 8)}-{digest(venue, 4)}",
            "name": venue,
            "type": kind,
            "alternate_names": [],
        }
    types = r.publication_types
    if types is None:
        types = ["JournalArticle"] if r.type == "article" else ["Conference"]
    return {
        "paperId": pid,
        "externalIds": ext,
        "url": f"https://www.semanticscholar.org/paper/{pid}",
        "title": r.title,
        "venue": venue,
        "publicationVenue": place,
        "year": r.year,
        "authors": [{"authorId": digest(a, 8), "name": a} for a in r.authors],
        "publicationTypes": types or None,
        "journal": {
            "name": r.journal if r.journal is not None else (r.venue or ""),
            **details(r, {"pages": "pages", "volume": "volume"}),
        },
    }


#: DBLP's publication types (its search API's `type`) for the record types of the corpus.
DBLP_TYPES = {
    "article": "Journal Articles",
    "preprint": "Informal and Other Publications",
    "book": "Books and Theses",
    "phdthesis": "Books and Theses",
    "incollection": "Parts in Books or Collections",
    "inbook": "Parts in Books or Collections",
    "book-chapter": "Parts in Books or Collections",
}


def dblp_info(r: Record) -> dict[str, Any]:
    authors = [{"@pid": digest(a, 6), "text": a} for a in r.authors]
    key = r.dblp_key or f"journals/corr/abs-{r.rid}"
    info: dict[str, Any] = {
        "authors": {"author": authors[0] if len(authors) == 1 else authors},
        "title": r.title + ".",
        "venue": r.venue or "CoRR",
        "year": str(r.year),
        "type": DBLP_TYPES.get(r.type or "", "Conference and Workshop Papers"),
        "key": key,
        "url": f"https://dblp.org/rec/{key}",
        **details(r, {"volume": "volume", "issue": "number", "pages": "pages"}),
    }
    if r.arxiv_id and info["venue"] == "CoRR":
        info["volume"] = f"abs/{r.arxiv_id}"
    if r.doi:
        info["doi"] = r.doi
        info["ee"] = f"https://doi.org/{r.doi}"
    elif r.arxiv_id:
        info["ee"] = f"https://arxiv.org/abs/{r.arxiv_id}"
    return info


def dblp_xml(r: Record) -> str:
    tag = "article" if r.type in ("article", "preprint") else "inproceedings"
    venue_tag = "journal" if tag == "article" else "booktitle"
    parts = [f'<dblp><{tag} key="{xml_escape(r.dblp_key or "")}" mdate="2024-01-01">']
    parts += [f"<author>{xml_escape(a)}</author>" for a in r.authors]
    parts.append(f"<title>{xml_escape(r.title)}.</title>")
    parts.append(f"<{venue_tag}>{xml_escape(r.venue or '')}</{venue_tag}><year>{r.year}</year>")
    for value, name in ((r.volume, "volume"), (r.issue, "number"), (r.pages, "pages")):
        if value:
            parts.append(f"<{name}>{xml_escape(value)}</{name}>")
    if r.doi:
        parts.append(f"<ee>https://doi.org/{xml_escape(r.doi)}</ee>")
    elif r.arxiv_id:
        parts.append(f"<ee>https://arxiv.org/abs/{xml_escape(r.arxiv_id)}</ee>")
    if r.crossref:
        parts.append(f"<crossref>{xml_escape(r.crossref)}</crossref>")
    parts.append(f"</{tag}></dblp>")
    return "".join(parts)


def dblp_proceedings_xml(key: str, r: Record) -> str:
    """`/rec/{key}.xml` of a proceedings volume, made from one of its papers: DBLP's title of the volume
    (with its city and dates; else the paper's `venue_full`), its publisher and series volume, as
    `<proceedings>` records carry them."""
    parts = [f'<dblp><proceedings key="{xml_escape(key)}" mdate="2024-01-01">']
    parts.append(f"<title>{xml_escape(r.proceedings_title or r.venue_full or r.venue or '')}</title>")
    parts.append(f"<booktitle>{xml_escape(r.venue or '')}</booktitle>")
    for value, name in ((r.publisher, "publisher"), (r.series_volume, "volume")):
        if value:
            parts.append(f"<{name}>{xml_escape(value)}</{name}>")
    parts.append(f"<year>{r.year}</year></proceedings></dblp>")
    return "".join(parts)


def arxiv_feed(records: list[Record], query: str, total: int) -> str:
    entries = []
    for r in records:
        authors = "".join(f"<author><name>{xml_escape(a)}</name></author>" for a in r.authors)
        doi = f"<arxiv:doi>{xml_escape(r.doi)}</arxiv:doi>" if r.doi and not r.doi.startswith("10.48550") else ""
        entries.append(
            f"<entry><id>http://arxiv.org/abs/{r.arxiv_id}v1</id><title>{xml_escape(r.title)}</title>"
            f"<updated>{r.year}-01-01T00:00:00Z</updated><published>{r.year}-01-01T00:00:00Z</published>"
            f'<link href="https://arxiv.org/abs/{r.arxiv_id}v1" rel="alternate" type="text/html"/>'
            f"<summary>Abstract.</summary>{authors}{doi}"
            f'<arxiv:primary_category term="cs.LG"/><category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>'
            "</entry>"
        )
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom"'
        ' xmlns="http://www.w3.org/2005/Atom">'
        f"<id>https://arxiv.org/api/{digest(query)}</id><title>arXiv Query: {xml_escape(query)}</title>"
        f"<opensearch:itemsPerPage>{len(records)}</opensearch:itemsPerPage>"
        f"<opensearch:totalResults>{total}</opensearch:totalResults><opensearch:startIndex>0</opensearch:startIndex>"
        + "".join(entries)
        + "</feed>"
    )


def arxiv_error(ident: str) -> str:
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">"
        "<entry><id>https://arxiv.org/api/errors#incorrect_id_format_for_" + xml_escape(ident) + "</id>"
        "<title>Error</title><summary>incorrect id format for " + xml_escape(ident) + "</summary></entry></feed>"
    )


def pubmed_summary(r: Record) -> dict[str, Any]:
    def short(a: str) -> str:
        given, family = a.rsplit(" ", 1) if " " in a else ("", a)
        return f"{family} {''.join(p[0] for p in given.split() if p)}".strip()

    return {
        "uid": r.pmid,
        "pubdate": f"{r.year} Jan",
        "source": r.venue,
        "authors": [{"name": short(a), "authtype": "Author"} for a in r.authors],
        "title": r.title + ".",
        "fulljournalname": r.venue_full or r.venue,
        "articleids": [{"idtype": "pubmed", "value": r.pmid}] + ([{"idtype": "doi", "value": r.doi}] if r.doi else []),
    }


def europepmc_result(r: Record) -> dict[str, Any]:
    def short(a: str) -> str:
        given, family = a.rsplit(" ", 1) if " " in a else ("", a)
        return f"{family} {''.join(p[0] for p in given.split() if p)}".strip()

    preprint = "rxiv" in (r.venue or "").lower()
    return {
        "id": f"PPR{r.pmid}" if preprint else r.pmid,
        "source": "PPR" if preprint else "MED",
        **({} if preprint else {"pmid": r.pmid}),
        **({"doi": r.doi} if r.doi else {}),
        "title": r.title + ".",
        "authorString": ", ".join(short(a) for a in r.authors) + ".",
        "journalTitle": r.venue,
        "pubYear": str(r.year),
        "pubType": "preprint" if preprint else "journal article",
    }


def openreview_note(r: Record) -> dict[str, Any]:
    forum = (r.url or "").rsplit("=", 1)[-1] or digest(r.rid)
    return {
        "id": forum,
        "forum": forum,
        "content": {
            "title": {"value": r.title},
            "authors": {"value": r.authors},
            "venue": {"value": f"{r.venue} {r.year}"},
            "venueid": {"value": f"{r.venue}.cc/{r.year}/Conference"},
        },
        "cdate": 1_600_000_000_000,
    }


def openreview_submission(s: dict[str, Any], venue: str) -> dict[str, Any]:
    """A submission note as API v2 lists it for `/notes?content.venueid=` (every field wrapped in `value`; the
    PDF named by its attachment path, fetched from `/pdf?id=`), from a fake venue's submission."""
    venueid = s.get("venueid", venue)
    domain = venue.removesuffix("/-/Submission")
    parts = domain.split("/")  # 'ICLR.cc/2024/Conference' -> 'ICLR 2024 poster', as the venue reads there
    shown = f"{parts[0].split('.')[0]} {parts[1] if len(parts) > 1 else ''} poster"
    content: dict[str, Any] = {
        "title": {"value": s["title"]},
        "authors": {"value": s.get("authors", [])},
        "authorids": {"value": [f"~{a.replace(' ', '_')}1" for a in s.get("authors", [])]},
        "keywords": {"value": ["large language models"]},
        "abstract": {"value": f"The abstract of {s['title']}."},
        "venue": {"value": shown},
        "venueid": {"value": venueid},
        "_bibtex": {"value": f"@inproceedings{{{s['id']},\ntitle={{{s['title']}}},\n}}"},
        "paperhash": {"value": s["title"].lower().replace(" ", "_")[:40]},
    }
    if s.get("pdf_path"):
        content["pdf"] = {"value": f"/pdf/{digest(s['id'])}.pdf"}
    return {
        "id": s["id"],
        "forum": s["id"],
        "number": s.get("number"),
        "content": content,
        "invitations": [f"{domain}/-/Submission", f"{domain}/-/Post_Submission", f"{domain}/-/Edit"],
        "domain": domain,
        "readers": ["everyone"],
        "writers": [domain, f"{domain}/Submission{s.get('number')}/Authors"],
        "signatures": [f"{domain}/Submission{s.get('number')}/Authors"],
        "cdate": 1_695_000_000_000,
        "mdate": 1_710_000_000_000,
        "odate": 1_697_000_000_000,
        "pdate": 1_705_000_000_000,
        "tcdate": 1_695_000_000_000,
        "tmdate": 1_710_000_000_000,
        "version": 2,
    }


def datacite_record(r: Record) -> dict[str, Any]:
    return {
        "id": r.doi,
        "type": "dois",
        "attributes": {
            "doi": r.doi,
            "creators": [
                {"name": f"{f}, {g}", "nameType": "Personal", "givenName": g, "familyName": f}
                for g, f in ((a.rsplit(" ", 1) if " " in a else ("", a)) for a in r.authors)
            ],
            "titles": [{"title": r.title}],
            "publisher": "arXiv" if (r.doi or "").startswith("10.48550") else "Zenodo",
            "publicationYear": r.year,
            "types": {
                "resourceTypeGeneral": {"preprint": "Preprint", "software": "Software", "dataset": "Dataset"}.get(
                    r.type or "", "Text"
                )
            },
            "url": r.url,
        },
    }


def bibtex(r: Record, ident: str) -> str:
    authors = " and ".join(r.authors)
    return (
        f'@inproceedings{{{ident},\n    title = "{r.title}",\n    author = "{authors}",\n'
        f'    booktitle = "{r.venue_full or r.venue}",\n    year = "{r.year}",\n'
        f'    url = "https://aclanthology.org/{ident}",\n    doi = "{r.doi}",\n}}\n'
    )


def landing_page(r: Record) -> str:
    metas = [f'<meta name="citation_title" content="{escape(r.title)}">']
    metas += [f'<meta name="citation_author" content="{escape(a)}">' for a in r.authors]
    if r.year:
        metas.append(f'<meta name="citation_publication_date" content="{r.year}">')
    if r.venue:
        metas.append(f'<meta name="citation_conference_title" content="{escape(r.venue)}">')
    if r.doi:
        metas.append(f'<meta name="citation_doi" content="{escape(r.doi)}">')
    return f"<!doctype html><html><head><title>{escape(r.title)}</title>{''.join(metas)}</head><body></body></html>"
