"""The files musim's fitted models ship in: a few named numpy arrays and a JSON `meta` in an
.npz, written byte for byte the same for the same arrays (fixed zip dates, so a model's script
regenerates its file exactly) and read without pickle."""

import io
import json
import zipfile
from pathlib import Path

import numpy as np

ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def write(path, arrays, meta):
    """Write `arrays` (name -> array, in this order) and then `meta` (a dict, as sorted JSON)."""
    entries = {**arrays, "meta": np.array(json.dumps(meta, sort_keys=True))}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, a in entries.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, a, allow_pickle=False)
            z.writestr(zipfile.ZipInfo(name + ".npy", ZIP_DATE), buf.getvalue(), zipfile.ZIP_DEFLATED)


def read(path, names, max_bytes, what, error):
    """([the arrays named `names`], meta) of a file `write` wrote; raises `error` with one line
    naming `what` file and the fault where it is larger than `max_bytes` or unreadable."""
    path = Path(path)
    try:
        if path.stat().st_size > max_bytes:
            raise error(f"{what} {path}: larger than {max_bytes:,} bytes")
        with np.load(path, allow_pickle=False) as z:
            return [z[name] for name in names], json.loads(str(z["meta"]))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
        raise error(f"{what} {path}: not a readable {what} file ({type(exc).__name__})") from None


def resolve(name, folder, shipped, read, digest, flag, error):
    """(id, array) of a model option's value: a shipped version (`shipped`: version -> file in
    `folder`; "" the newest, the last listed), or a file's path; either may carry the `@sha8` a
    run's key names (`v1@sha8`, `<path>@sha8`), and is then refused if the file's array is
    another.  `read(path)` gives (array, meta)."""
    base, _, sha = name.rpartition("@") if "@" in name else (name or list(shipped)[-1], "", "")
    if base in shipped:
        array, meta = read(folder / shipped[base])
        ident = f"v{meta.get('version', 0)}@{digest(array)[:8]}"
    elif base.endswith(".npz"):
        array, _ = read(base)
        ident = f"{base}@{digest(array)[:8]}"
    else:
        raise error(f"{flag} {name!r}: one of {', '.join(shipped)} or a model file (.npz)")
    if sha and ident != name:
        raise error(f"{flag} {name}: the model there is {ident}")
    return ident, array
