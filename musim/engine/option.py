"""A game's own option (games/contract.py Game.options), neutral of any CLI.

It sits below the engine, which checks a run's options against it (engine/spec.py), and below
musim.play, whose shared options (search_budget, node_limit) every game with search or exact
play declares.
"""

import dataclasses
from collections.abc import Callable

from musim.engine.errors import SpecError

OPTION_TYPES = (int, float, str, bool)


@dataclasses.dataclass(frozen=True)
class Option:
    """An option of the game's own, neutral of any CLI: `musim run --game NAME` shows it as
    `--name-with-dashes`; runs keep it in RunSpec.options[name] and the file's metadata."""

    name: str  # a Python identifier
    type: type  # int, float, str, or bool (a flag)
    default: object
    help: str
    range: tuple | None = None  # (low, high), both included: int and float only
    choices: tuple | None = None  # str only
    per_deal: bool = True  # False: concerns whole matches alone, so `musim record` leaves it out
    omit_default: bool = False  # at its default, left out of keys and metadata (engine/spec.py keyed_options)
    named_by_digest: bool = False  # a default run name shows a short digest of the value (a table), not the value
    parse: Callable | None = None  # the command line's text -> the value (ValueError: why not); None: by `type`
    example: object = None  # a value whose rows show columns the option adds (docs/formats.md lists them)
    table_sized: bool = False  # not at its default, rows depend on --tt-mb (a node limit): the key carries it

    @property
    def flag(self):
        return "--" + self.name.replace("_", "-")

    def check(self, value):
        """`value` if it is a valid value of this option; SpecError naming the option if not."""
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not self.type:
            raise SpecError(f"{self.flag}: expected {self.type.__name__}, got {value!r}")
        if self.range is not None and not self.range[0] <= value <= self.range[1]:
            raise SpecError(f"{self.flag}: {value!r} is not in the range {self.range[0]}..{self.range[1]}")
        if self.choices is not None and value not in self.choices:
            raise SpecError(f"{self.flag}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        return value


def whole_count(text, minimum=1):
    """A whole number >= minimum written plainly or in scientific notation ('1e6', '2.5e5'), at
    most 10^12 (an Option's `parse`); ValueError saying why not."""
    from decimal import Decimal, InvalidOperation

    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        raise ValueError(f"{text!r} is not a number") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise ValueError(f"{text!r} is not a whole number")
    if value < minimum:
        raise ValueError(f"{text!r} must be at least {minimum}")
    if value > 10**12:
        raise ValueError(f"{text!r} is more than 10^12")
    return int(value)
