"""The registry of named variants (presets and third-party rule sets)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..errors import OptionError, UnknownVariantError
from .ruleset import OptionSpec, RuleSet, validate_options

__all__ = [
    "Preset",
    "available_variants",
    "get_rules",
    "options_for_version",
    "register_preset",
    "register_variant",
]


@attrs.frozen
class Preset:
    """A named variant: its options and how to build its rule set from them."""

    name: str
    """The registered name."""
    build: Callable[[str, Mapping[str, Any]], RuleSet] = attrs.field(eq=False, repr=False)
    """Builds the rule set from (name, full option values)."""
    options: tuple[OptionSpec, ...] = ()
    """The options with their defaults."""
    aliases: tuple[str, ...] = ()
    """Other names that find this preset."""
    description: str = ""
    """One line saying what the variant is."""

    def rules(self, changes: Mapping[str, Any]) -> RuleSet:
        """The rule set with ``changes`` applied to the defaults (validated).

        Built rule sets are kept, so asking again for the same options returns
        the same object with its precomputed tables.
        """
        values = validate_options(self.name, self.options, changes)
        return _build(self.build, self.name, values)


_BUILT: dict[tuple[Any, str, tuple[tuple[str, Any], ...]], RuleSet] = {}


def _build(builder: Callable[[str, Mapping[str, Any]], RuleSet], name: str, values: Mapping[str, Any]) -> RuleSet:
    """``builder(name, values)``, kept so that the same options give the same object."""
    key = (builder, name, tuple(sorted(values.items(), key=lambda kv: kv[0])))
    try:
        return _BUILT[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable option value: build without keeping
        return builder(name, values)
    built = builder(name, values)
    if len(_BUILT) < 4096:
        _BUILT[key] = built
    return built


_PRESETS: dict[str, Preset] = {}
_ALIASES: dict[str, str] = {}


def register_preset(preset: Preset) -> None:
    """Register a preset under its name and aliases (library internal and extension use)."""
    for name in (preset.name, *preset.aliases):
        if name in _ALIASES and _ALIASES[name] != preset.name:
            raise OptionError(f"variant name {name!r} is already registered")
    _PRESETS[preset.name] = preset
    for name in (preset.name, *preset.aliases):
        _ALIASES[name] = preset.name


def register_variant(name: str, rules: RuleSet, *, aliases: tuple[str, ...] = ()) -> None:
    """Register a rule set of your own under ``name``.

    ``get_rules(name, **options)`` then returns it (with the options applied
    through `RuleSet.with_options`), and every function that takes a variant
    name accepts it.

    >>> from bezique_rules import get_rules, register_variant
    >>> register_variant("bezique-1500-doc", get_rules("bezique", target=1500))
    >>> get_rules("bezique-1500-doc").options["target"]
    1500

    Raises:
        OptionError: the name is taken by another variant.
    """
    if not isinstance(name, str) or not name:
        raise OptionError(f"a variant name is a non-empty string: {name!r}")
    for taken in (name, *aliases):
        if taken in _ALIASES:
            raise OptionError(f"variant name {taken!r} is already registered; choose another name")
    specs = rules.option_specs
    defaults = dict(rules.option_values)

    def build(vname: str, values: Mapping[str, Any]) -> RuleSet:
        changes = {k: v for k, v in values.items() if defaults.get(k, _MISSING) != v}
        built = rebuild(rules, changes) if changes else rules
        return attrs.evolve(built, name=vname)

    specs = tuple(attrs.evolve(s, default=defaults.get(s.name, s.default)) for s in specs)
    register_preset(Preset(name, build, specs, aliases, rules.description))


_MISSING = object()


def available_variants(*, builtin: bool = False) -> tuple[str, ...]:
    """The registered variant names (aliases not repeated), sorted.

    Args:
        builtin: only the presets this library ships, not variants registered since.

    >>> "bezique" in available_variants()
    True
    """
    if builtin:
        return tuple(sorted(n for n in _PRESETS if n in _BUILTIN))
    return tuple(sorted(_PRESETS))


_BUILTIN: set[str] = set()


def mark_builtin() -> None:
    """Record the presets registered so far as the library's own (called once at import)."""
    _BUILTIN.update(_PRESETS)


def preset(name: str) -> Preset:
    """The preset registered under ``name`` or one of its aliases.

    Raises:
        UnknownVariantError: no such variant; the message lists the known names.
    """
    if not isinstance(name, str):
        raise UnknownVariantError(f"a variant name is a string, not {name!r}")
    key = _ALIASES.get(name) or _ALIASES.get(name.strip().lower())
    if key is None:
        known = ", ".join(available_variants())
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}")
    return _PRESETS[key]


def get_rules(name: str | RuleSet, **options: Any) -> RuleSet:
    """The validated rule set of a registered variant, with options changed.

    >>> rules = get_rules("bezique", target=1500)
    >>> rules.options["target"], rules.players
    (1500, 2)

    Raises:
        UnknownVariantError: no such variant; the message lists the known names.
        OptionError: an unknown option or a bad value; the message names the
            option, the value and what is allowed.
    """
    if isinstance(name, RuleSet):
        return name.with_options(**options)
    return preset(name).rules(options)


def options_for_version(name: str, options: Mapping[str, Any], version: int) -> dict[str, Any]:
    """``options`` as written under behaviour ``version`` of the variant ``name``, completed
    so that they rebuild that version's behaviour: each option the variant added after
    ``version`` and ``options`` does not name takes its `OptionSpec.legacy` value.

    >>> options_for_version("partnership-pinochle", {}, 1)["bid_raises"]
    'any'
    """
    current = get_rules(name)
    if version > current.version:
        raise OptionError(
            f"written under behaviour version {version} of {name!r}; this library knows up to {current.version}"
        )
    out = dict(options)
    for spec in current.option_specs:
        if spec.since > version and spec.name not in out:
            out[spec.name] = spec.legacy
    return out


def rebuild(rules: RuleSet, changes: Mapping[str, Any]) -> RuleSet:
    """``rules`` with ``changes``: rebuilt from its family's builder, keeping every part
    the caller swapped in (with ``attrs.evolve``) on top of what the options give."""
    values = validate_options(rules.name, rules.option_specs, changes, dict(rules.option_values))
    if rules.builder is None:
        raise OptionError(f"rule set {rules.name!r} was built without options")
    current = dict(rules.option_values)
    pristine = _build(rules.builder, rules.name, current)
    fresh = _build(rules.builder, rules.name, values)
    overrides = {
        f.name: getattr(rules, f.name)
        for f in attrs.fields(type(rules))
        if f.eq and f.name not in ("name", "option_values") and getattr(rules, f.name) != getattr(pristine, f.name)
    }
    return attrs.evolve(fresh, **overrides) if overrides else fresh
