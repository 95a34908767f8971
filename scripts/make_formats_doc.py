"""Write docs/formats.md from the column descriptions (tests/test_formats.py keeps it in step).

Usage: python scripts/make_formats_doc.py
"""

from pathlib import Path

from musim.io.formats_doc import formats_markdown

OUT = Path(__file__).resolve().parent.parent / "docs" / "formats.md"

if __name__ == "__main__":
    OUT.write_text(formats_markdown())
    print(f"wrote {OUT}")
