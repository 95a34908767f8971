"""The documentation stands alone: no tracked file sends a reader to a file outside the repository,
every citation of a section of docs/rules.md (§2.3) or of a heading of docs/examples/README.md
names one that exists, every JSON example of docs/examples/README.md is accepted by the CLI, and
the README's DataFrame example runs as written."""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from musim.cli import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples" / "README.md"
# Built from parts so that this file does not match itself.
OUTSIDE = re.compile(r"\b(?:RULES|FORMATS|DESIGN)\.md\b|\.\./shared|beside this" + r" repository|\bseeds/\d")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
RULES_CITE = re.compile(r"docs/rules\.md((?:,?\s+(?:and\s+)?§\d+(?:\.\d+)*)+)")
EXAMPLES_CITE = re.compile(r'docs/examples/README\.md\s+"([^"]+)"')


def _tracked_texts():
    """(path, text) of every tracked text file."""
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for name in names.split("\n"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            yield path, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


def _headings(path):
    return [m.group(1).strip() for m in re.finditer(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)]


def _rules_sections():
    """The section numbers of docs/rules.md's headings ("## 2. Mü" -> "2", "### 2.3 Eklat" -> "2.3")."""
    return {m.group(1) for h in _headings(ROOT / "docs" / "rules.md") if (m := re.match(r"(\d+(?:\.\d+)*)\.? ", h))}


def test_no_tracked_file_points_outside_the_repository():
    bad = []
    for path, text in _tracked_texts():
        rel = path.relative_to(ROOT)
        bad += [f"{rel}: {m.group(0)}" for m in OUTSIDE.finditer(text)]
        if path.suffix == ".md":
            for target in MD_LINK.findall(text):
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue
                resolved = (path.parent / target.split("#")[0]).resolve()
                if not resolved.is_relative_to(ROOT) or not resolved.exists():
                    bad.append(f"{rel}: link {target}")
    assert not bad, "\n".join(bad)


def test_every_rules_citation_names_a_section():
    sections = _rules_sections()
    assert {"1", "2", "2.3", "5.1", "10"} <= sections
    bad = []
    for path, text in _tracked_texts():
        text = " ".join(text.split())
        cited = [n for m in RULES_CITE.finditer(text) for n in re.findall(r"§(\d+(?:\.\d+)*)", m.group(1))]
        if path.name == "rules.md" and path.parent.name == "docs":
            cited = re.findall(r"§(\d+(?:\.\d+)*)", text)
        bad += [f"{path.relative_to(ROOT)}: §{n}" for n in cited if n not in sections]
    assert not bad, "\n".join(bad)


def test_every_examples_citation_names_a_heading():
    headings = set(_headings(EXAMPLES))
    bad = []
    for path, text in _tracked_texts():
        for title in EXAMPLES_CITE.findall(" ".join(text.split())):
            if title not in headings:
                bad.append(f"{path.relative_to(ROOT)}: {title!r}")
    assert not bad, "\n".join(bad)


def _json_examples():
    return re.findall(r"^```json\n(.*?)^```$", EXAMPLES.read_text(encoding="utf-8"), re.M | re.S)


def test_every_game_has_an_example():
    games = {json.loads(block).get("game", "mu") for block in _json_examples()}
    want = {"mu", "bridge", "wimmueln", "panther", "mueckenstich", "rummue", "safarue", "reverse-safarue"}
    assert games >= want | {"calcory", "danger", "zwickern"}


@pytest.mark.parametrize("block", _json_examples(), ids=lambda b: json.loads(b).get("game", "mu"))
def test_example_is_accepted_by_the_cli(block):
    """Each example, as printed, piped into `musim solve -` (a position) or `musim replay -` (a record)."""
    obj = json.loads(block)
    command = "solve" if "leader" in obj or "pbn" in obj else "replay"
    result = CliRunner().invoke(cli, [command, "-"], input=block)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert "error" not in answer
    assert ("value" in answer) if command == "solve" else ("scores" in answer)


def test_generated_descriptions_read_as_sentences():
    """docs/formats.md's column descriptions and deck notes start with a capital and end with a full stop."""
    from musim.io.formats_doc import formats_markdown

    text = formats_markdown()
    descriptions = _descriptions(text)
    assert len(descriptions) > 100
    bad = [d for d in descriptions if not re.fullmatch(r"[A-Z].*\.", d.removesuffix(" |"))]
    assert not bad, "\n".join(bad)
    decks = [line for line in text.split("\n") if "A card is written" in line]
    assert decks and all(line.startswith("The deck has ") and line.endswith(".") for line in decks)
    assert "none of a colour" not in text and "in none were" not in text


def _descriptions(text):
    """The description cells of docs/formats.md's column tables."""
    return [row.split(" | ")[2] for row in text.split("\n") if row.startswith("| `") and row.count(" | ") >= 2]


def test_card_index_columns_say_how_the_deck_numbers_its_cards():
    """A column listing cards by index explains the index (not "(card index, docs/formats.md)": the
    description is also read from the Parquet file alone), and a deck without copies says nothing of
    copies' indices."""
    from musim.io.formats_doc import formats_markdown

    text = formats_markdown()
    assert not [d for d in _descriptions(text) if "formats.md" in d]
    index_columns = [row for row in text.split("\n") if row.startswith(("| `deck` | list<int8>", "| `grid` |"))]
    assert len(index_columns) == 6  # Calcory, Danger, Reverse Safarü, Rummü, Safarü, Zwickern
    assert all("Each card is its index in the " in row and "(docs/decks.md)" in row for row in index_columns)
    zwickern = text.split("## Cards: the Zwickern deck")[1].split("\n## ")[0]
    assert "No two cards are identical" in zwickern and "cop" not in zwickern
    assert "pile but its top card" not in text


def test_bid_help_example_hand_fits_the_default_player_count():
    """The hand `musim bid --help` shows is accepted at the default --players."""
    from musim.games.mu.analysis.bid import parse_hand

    result = CliRunner().invoke(cli, ["bid", "--help"], terminal_width=200)
    assert result.exit_code == 0
    help_text = " ".join(result.output.split())
    example = re.search(r'e\.g\. "([^"]+)"', help_text).group(1)
    default = int(re.search(r"--players INTEGER RANGE \[default: (\d+)", help_text).group(1))
    parse_hand(example, default)


def test_the_readme_dataframe_example_prints_cards_as_texts(tmp_path):
    """The README Quickstart's `python -c "import musim; df = musim.read_run(...)..."`, run exactly as
    written from a folder holding a small run at the path it names, prints the table and seat 0's
    cards of deal 0 as a list of card texts."""
    readme = (ROOT / "README.md").read_text()
    code = re.search(r'^python -c "(import musim; df = musim\.read_run\(.*?)"$', readme, re.M | re.S).group(1)
    run = re.search(r"read_run\('([^']+)'\)", code).group(1)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = ["run", "--game", "mu", "--deals", "20", "--seed", "7", "--workers", "1", "--no-progress", "--out", run]
    subprocess.run([sys.executable, "-m", "musim", *args], cwd=tmp_path, env=env, capture_output=True, check=True)
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["deal", "chief", "bid", "chief_trump", "success", "scores"]
    cards = ast.literal_eval(lines[-1])
    assert len(cards) == 15 and all(re.fullmatch(r"[RYGBK][0-9]", card) for card in cards), lines[-1]
