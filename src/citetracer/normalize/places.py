"""Places as references write them: parsed into city, region and country, and compared.

A location field ("Miami, FL", "Vancouver, BC, Canada", "Virtual Event") is parsed against a
gazetteer: the countries and cities of GeoNames (data/countries.tsv, data/cities.tsv.gz, every
place of 5,000 inhabitants or more), the first-level divisions references name after a city
(data/regions.tsv: US states, Canada's provinces, Australia's states, the UK's nations) and the
common English forms GeoNames lacks (data/place_aliases.tsv: "USA", "P.R. China", "NYC",
"Online"). A string names a place only through these lists: what they do not hold stays unknown.

A written place can mean several places ("Vancouver" is in Washington and in British Columbia,
"WA" is Washington or Western Australia): a `Place` keeps every reading consistent with all
its parts, and two places are the same when some reading of one agrees with some reading of the
other. Decisions, each one the conservative reading of a place an honest author names:

- Two different listed cities within `METRO_KM` of each other are the same place: a conference
  centre sits in a suburb that citers name by the nearby city ("Miami, FL" for the CVPR held
  in Miami Beach; "San Jose" for Santa Clara). Farther apart ("Vancouver, WA" and "Vancouver,
  BC", 460 km) they differ.
- A country (or region) alone and a city in it are the same place; in another country they differ.
- Hong Kong and Macao are within China ("Hong Kong, China" is one place).
- A city the gazetteer does not hold ("Snowbird, Utah") is compared by its name only: against
  another name in the same region the relation is unknown, never different.
- "Online", "Virtual", "Virtual Event" and "Held online" are one place, online. An online event
  that names a host ("Virtual Event, Austria": ICLR 2021, planned for Vienna) is compared by its
  host; an online event without one differs from any physical place.
"""

from __future__ import annotations

import gzip
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import product
from typing import Literal, NamedTuple

from citetracer.data import lines
from citetracer.normalize.text import fold

#: Cities closer than this are one place for a citation (a suburb named by its city).
METRO_KM = 50.0
#: Countries within another for comparison: a city there is a city of the other too.
_WITHIN = {"HK": "CN", "MO": "CN"}
#: Words whose abbreviations places are written with ("St. Louis", "Mt. Hood", "Ft. Worth").
_EXPAND = {"st": "saint", "ste": "sainte", "mt": "mount", "ft": "fort"}
_DROP = frozenset({"the"})
_REWRITTEN = _DROP | frozenset(_EXPAND)
#: Most pieces a place is written in, and most readings kept (the rest are more of the same).
_MAX_PIECES = 6
_MAX_OPTIONS = 64
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")

Relation = Literal["same", "different", "unknown"]
_Kind = Literal["country", "region", "city", "online"]


class City(NamedTuple):
    """A gazetteer city: its name, country, GeoNames admin1 code, population and coordinates."""

    name: str
    country: str
    admin1: str
    population: int
    lat: float
    lon: float


@dataclass(frozen=True)
class Reading:
    """One way to read a written place: each part None when the text does not say it.

    `city` indexes the gazetteer; `city_name` is the folded name of a city it does not hold."""

    country: str | None = None
    region: str | None = None  # "US-FL", "CA-BC": country and code
    city: int | None = None
    city_name: str | None = None


@dataclass(frozen=True)
class Place:
    """A parsed place: the parts of its most likely reading, and every reading consistent with the text."""

    text: str
    online: bool
    city: str | None
    region: str | None
    country: str | None
    readings: tuple[Reading, ...]


class _Option(NamedTuple):
    kind: _Kind
    value: str | int  # ISO code, region key, gazetteer index, or "online"


class _Gazetteer:
    """The place lists, indexed by folded key."""

    def __init__(self) -> None:
        self.cities: list[City] = []
        self.keys: dict[tuple[str, ...], list[_Option]] = {}
        self.codes: set[tuple[str, ...]] = set()  # keys that match only when written in capitals
        self.aliases: set[tuple[str, ...]] = set()  # keys of place_aliases.tsv ("NYC")
        self.free: set[tuple[str, ...]] = set()  # keys also listed as a name, not only as a code
        self.regions: dict[str, str] = {}  # region key -> code as written ("FL")
        self.region_of: dict[tuple[str, str], str] = {}  # (country, admin1) -> region key
        self.longest = 1
        self._load()

    def _add(self, name: str, option: _Option, code: bool = False) -> None:
        key = place_key(name)
        if not key:
            return
        options = self.keys.setdefault(key, [])
        if option not in options:
            options.append(option)
        if code:
            self.codes.add(key)
        else:
            self.free.add(key)
        self.longest = max(self.longest, len(key))

    def _load(self) -> None:
        for line in lines("countries.tsv"):
            iso, _iso3, name = line.split("\t")[:3]
            self._add(name, _Option("country", iso))
        for line in lines("regions.tsv"):
            country, admin1, code, name, *rest = [*line.split("\t"), ""][:5]
            key = f"{country}-{code}"
            self.regions[key] = code
            self.region_of[(country, admin1)] = key
            self._add(name, _Option("region", key))
            self._add(code, _Option("region", key), code=len(code) <= 3)
            for alias in (a.strip() for a in rest[0].split("|")):
                if alias:
                    self._add(alias, _Option("region", key), code=alias.isupper() and len(alias) <= 3)
        raw = resources.files("citetracer.data").joinpath("cities.tsv.gz").read_bytes()
        by_name: dict[tuple[str, str, str], int] = {}
        for line in gzip.decompress(raw).decode("utf-8").splitlines():
            if not line or line.startswith("#"):
                continue
            name, country, admin1, population, lat, lon, alternates = line.split("\t")
            n = len(self.cities)
            self.cities.append(City(name, country, admin1, int(population), float(lat), float(lon)))
            by_name.setdefault((name, country, admin1), n)
            by_name.setdefault((name, country, ""), n)
            self._add(name, _Option("city", n))
            for alt in alternates.split("|") if alternates else ():
                self._add(alt, _Option("city", n))
        for line in lines("place_aliases.tsv"):
            kind, target, aliases = line.split("\t")
            if kind == "country":
                option = _Option("country", target)
            elif kind == "online":
                option = _Option("online", "online")
            else:
                name, country, *admin = (p.strip() for p in target.split(","))
                option = _Option("city", by_name[(name, country, admin[0] if admin else "")])
            for alias in aliases.split("|"):
                self.aliases.add(place_key(alias))
                self._add(alias.strip(), option, code=kind == "country" and alias.strip().isupper() and len(alias) <= 3)

    def options(self, words: list[str], written: list[str]) -> list[_Option]:
        """What a name can be. A country's name is the country: the towns called "China" or "Mexico"
        elsewhere are left out (a city of that country by the same name stays: Singapore)."""
        key = tuple(words)
        found = self.keys.get(key, [])
        if (
            found
            and key in self.codes
            and key not in self.free
            and not all(w.isupper() or not w.isalpha() for w in written)
        ):
            return []
        if all(w.isupper() and len(w) > 1 for w in written) and key not in self.aliases:
            found = [o for o in found if o.kind != "city"]  # "PEARL", "SIN": an acronym, not Pearl, MS
        countries = {o.value for o in found if o.kind == "country"}
        if countries:
            found = [o for o in found if o.kind != "city" or self.cities[int(o.value)].country in countries]
        return found


@cache
def gazetteer() -> _Gazetteer:
    """The lists, read once per process (on first use)."""
    return _Gazetteer()


def place_key(text: str) -> tuple[str, ...]:
    """The folded words of a place name: case, accents and punctuation ignored, "St." read as "Saint"."""
    words = _ASCII_TOKEN.findall(text.lower()) if text.isascii() else _TOKEN.findall(fold(text))
    if _REWRITTEN.isdisjoint(words):
        return tuple(words)
    return tuple(_EXPAND.get(w, w) for w in words if w not in _DROP)


def _written(text: str) -> list[str]:
    return [w for w in _TOKEN.findall(text) if fold(w) not in _DROP]


def _partitions(words: list[str], written: list[str]) -> list[list[list[_Option]]]:
    """The ways to read one comma-free piece as consecutive listed names ("Miami FL", "Vancouver BC
    Canada"), the whole piece first; each way is a list of parts, each part its options."""
    gaz = gazetteer()
    whole = gaz.options(words, written)
    if whole:
        return [[whole]]
    out: list[list[list[_Option]]] = []

    def walk(start: int, parts: list[list[_Option]]) -> None:
        if start == len(words):
            out.append(list(parts))
            return
        if len(parts) >= 3:
            return
        for end in range(min(len(words), start + gaz.longest), start, -1):
            opts = gaz.options(words[start:end], written[start:end])
            if parts:  # after the first part only a region or a country ("University of Rochester" is no place)
                opts = [o for o in opts if o.kind != "city"]
            if opts:
                parts.append(opts)
                walk(end, parts)
                parts.pop()

    walk(0, [])
    return out[:4]


_RANK = {"city": 0, "region": 1, "country": 2}


def _country_ok(inner: str | None, outer: str | None) -> bool:
    return inner is None or outer is None or inner == outer or _WITHIN.get(inner) == outer


def _assemble(slots: list[list[_Option]]) -> tuple[list[Reading], bool, int]:
    """Readings from parts in written order (city, then region, then country); a part that fits no
    reading is left out, and only the readings that leave out fewest parts are kept."""
    gaz = gazetteer()
    online = any(o.kind == "online" for slot in slots for o in slot)
    slots = [[o for o in slot if o.kind != "online"][:_MAX_OPTIONS] for slot in slots]
    slots = [s for s in slots if s]
    if not slots:
        return [], online, 0
    best: list[Reading] = []
    best_skipped = len(slots) + 1
    for mask in product((True, False), repeat=len(slots)):
        kept = mask.count(True)
        skipped = len(slots) - kept
        if skipped > best_skipped or not 1 <= kept <= len(_RANK):
            continue  # a reading has one city, one region and one country at most
        chosen = [s for s, keep in zip(slots, mask, strict=True) if keep]
        for combo in _ordered(chosen, -1):
            reading = _combine(gaz, combo)
            if reading is None:
                continue
            if skipped < best_skipped:
                best, best_skipped = [], skipped
            if reading not in best:
                best.append(reading)
    return best, online, best_skipped


def _ordered(slots: list[list[_Option]], last: int) -> Iterator[tuple[_Option, ...]]:
    """The choices of one option a slot whose kinds come in written order (city, region, country):
    a city only first, so a place of many ambiguous names stays a small search."""
    if not slots:
        yield ()
        return
    for option in slots[0]:
        rank = _RANK[option.kind]
        if rank > last and len(slots) - 1 <= len(_RANK) - 1 - rank:
            for rest in _ordered(slots[1:], rank):
                yield (option, *rest)


def _combine(gaz: _Gazetteer, combo: tuple[_Option, ...]) -> Reading | None:
    ranks = [_RANK[o.kind] for o in combo]
    if ranks != sorted(ranks) or len(set(ranks)) != len(ranks):
        return None
    country = next((str(o.value) for o in combo if o.kind == "country"), None)
    region = next((str(o.value) for o in combo if o.kind == "region"), None)
    city_ix = next((int(o.value) for o in combo if o.kind == "city"), None)
    if region is not None and not _country_ok(region.split("-")[0], country):
        return None
    if city_ix is not None:
        city = gaz.cities[city_ix]
        if not _country_ok(city.country, country):
            return None
        city_region = gaz.region_of.get((city.country, city.admin1))
        if region is not None and city_region != region:
            return None
        region = region or city_region
        country = country or city.country
    elif region is not None:
        country = country or region.split("-")[0]
    return Reading(country=country, region=region, city=city_ix)


def _pieces(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[,;/()\[\]]|\s[-–—]\s", text) if p.strip()][-_MAX_PIECES:]


def _name_like(piece: str) -> bool:
    """Whether an unlisted piece can be a city's name: a few capitalised words ("Snowbird", "Urbana-
    Champaign", "Garching bei München"), no digits, no acronym ("ICLR", "NeurIPS"), no meeting words."""
    words = piece.split()
    key = place_key(piece)
    if not 1 <= len(words) <= 4 or re.search(r"\d", piece) or set(key) & _NOT_A_NAME or "of" in key:
        return False
    for word in words:
        for part in re.split(r"[-'’]", word.strip(".")):
            if part and part not in _NAME_PARTICLES and not _CAPITALISED.fullmatch(part):
                return False
    return words[0][:1].isupper()


_CAPITALISED = re.compile(r"(Mc|Mac)?[^\W\d_][^\W\d_A-Z]*")
_NAME_PARTICLES = frozenset("de la le les du des del di da do dos am an bei im upon sur on en y und".split())


_NOT_A_NAME = frozenset(
    "conference workshop symposium proceedings international annual meeting congress hotel "
    "universitat universite universita universidad universidade hochschule institut institute school college "
    "center centre hall room campus part volume edition papers selected revised session track".split()
)


def parse_place(text: str) -> Place | None:
    """The place `text` names, or None when no part of it is a listed place.

    Pieces are read right to left in the usual order (city, region, country; "online" anywhere);
    a leading piece the lists do not hold is kept as an unlisted city's name when a listed region
    or country follows it ("Snowbird, Utah, USA"); other unlisted pieces (a hotel, a campus) are
    ignored."""
    if not text or not text.strip() or len(text) > 300:
        return None
    slots: list[list[_Option]] = []
    unlisted: list[tuple[int, str]] = []
    for piece in _pieces(text):
        words, written = list(place_key(piece)), _written(piece)
        if not words:
            continue
        parts = _partitions(words, written)
        if not parts:
            unlisted.append((len(slots), piece))
            continue
        # Alternative partitions of one piece are merged part by part (they rarely differ).
        first = parts[0]
        slots.extend(first)
    if not slots:
        return None
    readings, online, _ = _assemble(slots)
    if not readings and not online:
        return None
    if unlisted and unlisted[0][0] == 0 and _name_like(unlisted[0][1]):
        name = " ".join(place_key(unlisted[0][1]))
        if readings and all(r.city is None for r in readings):
            readings = [Reading(r.country, r.region, None, name) for r in readings]
    readings.sort(key=lambda r: -(gazetteer().cities[r.city].population if r.city is not None else 0))
    top = readings[0] if readings else Reading()
    gaz = gazetteer()
    city = gaz.cities[top.city].name if top.city is not None else (unlisted[0][1] if top.city_name else None)
    region = gaz.regions.get(top.region) if top.region else None
    return Place(text=text, online=online, city=city, region=region, country=top.country, readings=tuple(readings))


def _km(a: City, b: City) -> float:
    lat1, lat2 = math.radians(a.lat), math.radians(b.lat)
    dlat, dlon = lat2 - lat1, math.radians(b.lon - a.lon)
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(h)))


def _compare(a: Reading, b: Reading) -> Relation:
    """Two readings: "same" when nothing they both state differs, "different" when a listed fact
    does, "unknown" when only an unlisted city's name could."""
    if a.country and b.country and not (_country_ok(a.country, b.country) or _country_ok(b.country, a.country)):
        return "different"
    if a.region and b.region and a.region != b.region:
        return "different"
    gaz = gazetteer()
    if a.city is not None and b.city is not None:
        if a.city == b.city or _km(gaz.cities[a.city], gaz.cities[b.city]) <= METRO_KM:
            return "same"
        return "different"
    names = [gaz.cities[r.city].name if r.city is not None else r.city_name for r in (a, b)]
    if names[0] is None or names[1] is None:
        return "same"
    return "same" if place_key(names[0]) == place_key(names[1]) else "unknown"


def _relation(a: tuple[Reading, ...], b: tuple[Reading, ...]) -> Relation:
    outcomes = {_compare(x, y) for x, y in product(a, b)}
    if "same" in outcomes:
        return "same"
    return "unknown" if "unknown" in outcomes else "different"


def place_relation(cited: str, found: str) -> Relation:
    """Whether two written places are the same place ("same"), contradict each other on a listed
    fact ("different"), or cannot be told apart with the lists ("unknown": either is not a listed
    place, or they differ only in a city the gazetteer does not hold). Symmetric."""
    a, b = parse_place(cited), parse_place(found)
    if a is None or b is None:
        return "unknown"
    if a.online and b.online:
        return "same" if not (a.readings and b.readings) else _relation(a.readings, b.readings)
    if a.online or b.online:
        online, physical = (a, b) if a.online else (b, a)
        if not physical.readings:
            return "unknown"
        return _relation(online.readings, physical.readings) if online.readings else "different"
    return _relation(a.readings, b.readings)


# ------------------------------------------------------------------ proceedings titles

_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "januar februar marz maerz juni juli oktober dezember "  # German
    "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre "  # French
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre "  # Spanish
    "gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre"  # Italian
).split()
_DATE_WORDS = frozenset([*_MONTHS, "to", "and", "bis", "vom", "au", "del", "al", "y", "et", "des", "de", "du"])
_NOISE = re.compile(
    r"^(proceedings?|revised (selected )?papers?|selected papers?|post-?proceedings|part [ivx\d]+|"
    r"vol(ume)?\.? [ivx\d]+|workshops?|companion( volume)?|extended abstracts?|tutorials?|"
    r"co-?located .*|held in conjunction .*|papers?|abstracts?|short papers?|demos?|posters?)$",
    re.IGNORECASE,
)
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th|er|e)?$")


def _is_date(piece: str) -> bool:
    """A piece that is only a date ("20-25 June 2009", "May 3-7", "Oktober 2013", "2021", "9.-10")."""
    words = _TOKEN.findall(fold(piece))
    if not words or not re.search(r"[^\W\d_]", piece):
        return True
    dated = any(w in _MONTHS or re.fullmatch(r"(19|20)\d\d", w) for w in words)
    return dated and all(w in _DATE_WORDS or _ORDINAL.match(w) for w in words)


def _without_date(piece: str) -> str:
    """A piece with a trailing or leading date removed ("China - September 28 - 29" -> "China")."""
    parts = [p for p in re.split(r"\s+[-–—]\s+", piece) if p.strip()]
    while parts and _is_date(parts[0]):
        parts.pop(0)
    cut = next((i for i, p in enumerate(parts) if _is_date(p)), len(parts))
    return " - ".join(parts[:cut]).strip()


def location_of_proceedings(title: str) -> str | None:
    """The place a conference was held, as its proceedings title writes it, or None.

    DBLP titles proceedings "Name, Acronym Year, City, Region, Country, Dates[, Proceedings]"
    (the date sometimes first: "..., 20-25 June 2009, Miami, Florida, USA"). The location is the
    last run of comma-separated pieces that are places (online included), once dates are set aside
    and up to `_TAIL` trailing pieces that are not places ("Proceedings", "Revised Selected Papers",
    "Volume 1: Long Papers") are skipped; a piece the gazetteer does not hold counts only as the
    run's first piece (its city) with a listed region or country after it."""
    if not title or len(title) > 1000:
        return None
    raw = re.split(r",|\.\s|;|\(|\)|\[|\]|\s[-–—]\s", title)
    pieces = [p for p in (_trim_date(_after_number(_after_in(p))) for p in raw) if p and not re.search(r"\d", p)]
    end = len(pieces)
    for _ in range(_TAIL):
        if not end or _piece_kind(_after_in(pieces[end - 1])) == "listed":
            break
        end -= 1
    run: list[str] = []
    unlisted = 0
    for piece in reversed(pieces[:end]):
        kind = _piece_kind(piece)
        if kind == "listed" and _fits([piece, *run]):
            run.insert(0, piece)
        elif _name_like(piece) and run and not unlisted and not _has_city(run):
            # An unlisted city ("Snowbird, Utah"), or an unlisted region after a listed city ("Taormina,
            # Sicily, Italy"); a listed name that does not fit counts as unlisted (a Crete of Illinois
            # in "Crete, Greece").
            run.insert(0, piece)
            unlisted += 1
        else:
            break
    return ", ".join(run) if run else None


#: Most trailing pieces after the place that are skipped ("Volume 1", "Long Papers", "Proceedings").
_TAIL = 3
_DATE_CONNECTORS = frozenset("from until through till vom".split())


def _date_token(token: str) -> bool:
    parts = [p for p in re.split(r"[-–—./]+", fold(token).strip("[]()'\".,:;")) if p]
    return all(p in _DATE_WORDS or p in _DATE_CONNECTORS or _ORDINAL.match(p) for p in parts)


def _trim_date(piece: str) -> str:
    """A piece without the dates before and after its words ("1997 Birmingham U.K" -> "Birmingham U.K",
    "China - September 28 - 29" -> "China"); empty when it is only a date."""
    words = piece.split()
    while words and _date_token(words[0]):
        words.pop(0)
    while words and _date_token(words[-1]):
        words.pop()
    text = " ".join(words).strip(" -–—:")
    return "" if not re.search(r"[^\W\d_]", text) else text


def _after_number(piece: str) -> str:
    """A piece's place after a number ("LOPSTR 2000 London" -> "London"), when there is one."""
    after = re.sub(r"^.*\d\S*\s+", "", piece)
    return after if after == piece or _piece_kind(after) == "listed" else piece


def _after_in(piece: str) -> str:
    """A piece's place after "in" or "at" ("held at Beijing", "Proceedings des Workshops in Erlangen")."""
    after = re.sub(r"^(.*\s)?(in|at)\s(?=[A-ZÀ-Ý])", "", piece)
    return after if after == piece or _piece_kind(after) == "listed" else piece


def _piece_kind(piece: str) -> Literal["listed", "name", "other"]:
    words = list(place_key(piece))
    if not words:
        return "other"
    if _partitions(words, _written(piece)):
        return "listed"
    return "name" if _name_like(piece) and piece[:1].isupper() else "other"


def _has_city(run: list[str]) -> bool:
    """Whether the run so far holds a listed city (then an unlisted piece before it is not the city)."""
    place = parse_place(", ".join(run))
    return place is not None and any(r.city is not None for r in place.readings)


def _fits(run: list[str]) -> bool:
    """Whether the listed pieces of a run read as one place, none left out ("MS, New York City, NY"
    does not: Mississippi cannot come before a city of New York)."""
    slots: list[list[_Option]] = []
    for piece in run:
        parts = _partitions(list(place_key(piece)), _written(piece))
        if parts:
            slots.extend(parts[0])
    return _assemble(slots)[2] == 0 if slots else False


def iter_cities() -> Iterator[City]:
    """The gazetteer's cities (for tests and benches)."""
    yield from gazetteer().cities
