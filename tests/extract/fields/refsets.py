"""Tiny hand-written labelled reference sets in the anystyle XML and GROBID TEI layouts (test fixtures)."""

from __future__ import annotations

from pathlib import Path

ANYSTYLE = """<?xml version="1.0" encoding="UTF-8"?>
<dataset>
  <sequence>
    <citation-number>[1]</citation-number>
    <author>Garcia, M., &amp; Okafor, T.</author>
    <date>(2019).</date>
    <title>Sparse attention for long documents.</title>
    <journal>Journal of Machine Learning Research,</journal>
    <volume>20(4),</volume>
    <pages>113-140.</pages>
  </sequence>
  <sequence>
    <author>Lindqvist, A., &amp; Moreau, P.</author>
    <date>(2015).</date>
    <title>Tidal mixing in shallow estuaries.</title>
    <journal>Estuarine Science,</journal>
    <volume>7(2),</volume>
    <pages>45-61.</pages>
  </sequence>
  <sequence>
    <author>Nakamura, K.</author>
    <date>(2008).</date>
    <title>Grammar induction from child speech.</title>
    <journal>Cognitive Linguistics Quarterly,</journal>
    <volume>12,</volume>
    <pages>201-230.</pages>
  </sequence>
  <sequence>
    <author>Maria Garcia and Tunde Okafor.</author>
    <title>Graph kernels for molecules.</title>
    <container-title>In Proceedings of the Conference on Learning Theory,</container-title>
    <pages>pages 1-9,</pages>
    <date>2011.</date>
  </sequence>
  <sequence>
    <author>Pedro Alves and Hana Novak.</author>
    <title>Robust parsing of noisy text.</title>
    <container-title>In Proceedings of the Workshop on Text Mining,</container-title>
    <pages>pages 77-85,</pages>
    <date>2014.</date>
  </sequence>
  <sequence>
    <author>Smith, John.</author>
    <title>The Quiet Harbour: A History.</title>
    <location>Boston:</location>
    <publisher>Beacon Press,</publisher>
    <date>1998.</date>
  </sequence>
  <sequence>
    <author>Weber, Anna.</author>
    <title>Rivers of the North.</title>
    <location>Oxford:</location>
    <publisher>Clarendon Press,</publisher>
    <date>2004.</date>
  </sequence>
</dataset>
"""

TEI = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><listBibl>
<bibl><author>J. P. Collman</author>, <title
  level="a">Oxygen binding by iron porphyrins</title>, <title
  level="j">J. Am. Chem. Soc.</title> <biblScope
  type="vol">10</biblScope>, <biblScope
  type="pp">265</biblScope> (<date>1977</date>).</bibl>
<bibl><author>R. Ortiz and L. Chen</author>, <title
  level="a">Spin waves in thin films</title>, <title
  level="j">Phys. Rev. B</title> <biblScope
  unit="volume">54</biblScope>, <biblScope
  unit="page">8812</biblScope> (<date>1996</date>).</bibl>
<bibl><author>K. Abe</author>, <title
  level="j">Nucl. Phys. A</title> <biblScope
  unit="volume">12</biblScope>, <biblScope
  unit="page">311</biblScope> (<date>1988</date>).</bibl>
<bibl><author>S. Lee</author>, <title
  level="a">Notes on chapters</title>, in <title
  level="m">A Book of Essays</title>, <publisher>Springer</publisher>, <pubPlace
  >Berlin</pubPlace> (<date>2001</date>).</bibl>
</listBibl></back></text></TEI>
"""


def write(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "anystyle-core.xml").write_text(ANYSTYLE, encoding="utf-8")
    (directory / "grobid-citations.tei.xml").write_text(TEI, encoding="utf-8")
    return directory
