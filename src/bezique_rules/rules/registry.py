"""The registry of named variants (presets and third-party rule sets)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

import attrs

from ..errors import (
    ArgumentTypeError,
    BeziqueRulesError,
    OptionError,
    OptionTypeError,
    UnknownVariantError,
    VariantTypeError,
    quote,
)
from ..lazy import BUILD_LOCK
from .ruleset import OptionSpec, OptionValue, RuleSet, offered_options, validate_options

__all__ = [
    "BUILT_CACHE_SIZE",
    "Preset",
    "PresetProfile",
    "RuleSetBuilder",
    "available_variants",
    "get_rules",
    "options_for_version",
    "profile_presets",
    "register_checks",
    "register_preset",
    "register_presets",
    "register_variant",
    "rules_from_key",
    "rules_from_parts",
]


RuleSetBuilder: TypeAlias = Callable[[str, Mapping[str, Any]], RuleSet]
"""A preset's builder: its rule set from (name, full validated option values)."""


@attrs.frozen
class Preset:
    """A named variant: its options and how to build its rule set from them."""

    name: str
    """The registered name."""
    build: RuleSetBuilder = attrs.field(eq=False, repr=False)
    """Builds the rule set from (name, full option values)."""
    options: tuple[OptionSpec, ...] = ()
    """The options with their defaults."""
    aliases: tuple[str, ...] = ()
    """Other names that find this preset."""
    description: str = ""
    """One line saying what the variant is."""

    def rules(self, changes: Mapping[str, Any]) -> RuleSet:
        """The rule set with ``changes`` applied to the defaults (validated).

        The most recently built rule sets are kept (see `BUILT_CACHE_SIZE`), so asking
        again for the same options returns the same object with its precomputed tables.
        """
        if changes:
            values = validate_options(self.name, self.options, changes)
            if any(values[s.name] != s.default or type(values[s.name]) is not type(s.default) for s in self.options):
                return _build(self.build, self.name, values)
        # the defaults (however asked for): built once and kept for good (one per variant)
        found = _DEFAULTS.get(self.name)
        if found is None or found[0] is not self:
            with BUILD_LOCK:  # one build, however many threads ask at once
                found = _DEFAULTS.get(self.name)
                if found is None or found[0] is not self:
                    found = (self, _build(self.build, self.name, validate_options(self.name, self.options, {})))
                    _DEFAULTS[self.name] = found
        return found[1]


BUILT_CACHE_SIZE = 12
"""How many built rule sets are kept for reuse, least recently used dropped first.

Small on purpose: a rule set's tables take up to ~12 MB (partnership Pinochle), so 12
rule sets with tables of their own stay under ~150 MB. Rule sets that differ only in
options no deal reads (a target, the number of deals) share one set of tables (see
`RuleSet.share_tables`), so most option sets cost almost nothing. A program that keeps a
rule set (or a state) alive keeps its tables; the cache only bounds what is kept for it."""

_BUILT: dict[tuple[Any, str, tuple[tuple[str, Any], ...]], RuleSet] = {}
"""The LRU of built rule sets: a dict in use order (least recently used first)."""
_BUILT_LOCK = threading.Lock()
"""Held for the short reads and writes of `_BUILT` and `_TWINS` (never while building: a
build holds `BUILD_LOCK`, and may take this one inside it, never the other way round)."""

_DEFAULTS: dict[str, tuple[Preset, RuleSet]] = {}
"""Per variant name: its rule set with the default options (kept for good, outside the LRU)."""

_TWINS: dict[RuleSet, RuleSet] = {}
"""Per table key (see `RuleSet.table_key`): the kept rule set whose tables equal rule sets share."""

RuleSetCheck = Callable[[RuleSet], None]
"""A whole-rule-set check: raises `OptionError` for a combination of options the engine
cannot serve (see `register_checks`)."""

_CHECKS: dict[RuleSetBuilder, RuleSetCheck] = {}


def register_checks(builder: RuleSetBuilder, check: RuleSetCheck) -> None:
    """Run ``check`` on every rule set ``builder`` builds (each rules family registers one:
    options are checked one by one by their `OptionSpec`, then as a whole by ``check``)."""
    _CHECKS[builder] = check


def _build(builder: RuleSetBuilder, name: str, values: Mapping[str, Any]) -> RuleSet:
    """``builder(name, values)``, checked as a whole and kept (in a small LRU) so that the
    same options give the same object."""
    key = (builder, name, tuple(sorted(values.items(), key=lambda kv: kv[0])))
    try:
        cached = _cached(key)
    except TypeError:  # an unhashable option value: build without keeping
        return _checked(builder(name, values))
    if cached is not None:
        return cached
    with BUILD_LOCK:  # one build per key, however many threads ask at once
        cached = _cached(key)
        return cached if cached is not None else _keep(key, _checked(builder(name, values)))


def _cached(key: tuple[Any, str, tuple[tuple[str, Any], ...]]) -> RuleSet | None:
    """The kept rule set of ``key``, now the most recently used, or None."""
    with _BUILT_LOCK:
        cached = _BUILT.pop(key, None)
        if cached is not None:
            _BUILT[key] = cached
        return cached


def _keep(key: tuple[Any, str, tuple[tuple[str, Any], ...]], built: RuleSet) -> RuleSet:
    """Keep ``built`` under ``key`` (sharing the tables of a kept twin) and return it."""
    try:
        twin_key: Any = built.table_key()
        hash(twin_key)
    except TypeError:  # a part that cannot be hashed: no sharing
        twin_key = None
    with _BUILT_LOCK:
        if twin_key is not None:
            twin = _TWINS.get(twin_key)
            if twin is not None:
                built.share_tables(twin)  # same deal parts: one set of tables
            else:
                _TWINS[twin_key] = built
        _BUILT.pop(key, None)
        _BUILT[key] = built
        while len(_BUILT) > BUILT_CACHE_SIZE:
            dropped = _BUILT.pop(next(iter(_BUILT)))
            _forget_twin(dropped)
    return built


def _forget_twin(dropped: RuleSet) -> None:
    """Stop offering ``dropped``'s tables for sharing, unless a kept rule set shares them."""
    for key, twin in list(_TWINS.items()):
        if twin is dropped:
            heir = next((r for r in _BUILT.values() if r._tables_of is dropped), None)
            if heir is None:
                del _TWINS[key]
            else:
                _TWINS[key] = dropped  # still in use by a kept rule set: keep offering it


def _checked(rules: RuleSet) -> RuleSet:
    check = _CHECKS.get(rules.builder) if rules.builder is not None else None
    if check is not None:
        check(rules)
    return rules


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


def register_presets(*presets: Preset, check: RuleSetCheck) -> None:
    """Register the ``presets`` of one family (see `register_preset`) and run ``check`` on
    every rule set their builders build (see `register_checks`; `check_dealt_deck` where the
    family has no check of its own)."""
    for found in presets:
        register_preset(found)
        register_checks(found.build, check)


@attrs.frozen(kw_only=True)
class PresetProfile:
    """What tells one preset of a family apart in the registry; a family's profile record
    (`MultipackProfile`, `MultihandProfile`) extends it with its rules (see `profile_presets`)."""

    fixed_options: tuple[tuple[str, OptionValue], ...] = ()
    """The family's options the preset does not offer, with the values it plays them at (see
    `offered_options`, `read_options`)."""
    aliases: tuple[str, ...] = ()
    """Other names that find the preset."""


def profile_presets(
    build: RuleSetBuilder,
    profiles: Mapping[str, PresetProfile],
    summaries: Mapping[str, str],
    family: tuple[OptionSpec, ...],
    selector: str,
    doc: str,
) -> dict[str, Preset]:
    """The presets of a family told apart by profiles, all built by ``build``: per name of
    ``profiles``, a `Preset` whose options are the ``selector`` option fixed at the preset's
    name (how ``build`` finds the profile; ``doc`` says what it is) and then the ``family``'s
    options the profile does not fix (`offered_options`), with the profile's aliases and its
    one line in ``summaries`` (`Preset.description`)."""
    return {
        name: Preset(
            name,
            build,
            (
                OptionSpec(selector, name, (name,), doc=doc),
                *offered_options(family, profile.fixed_options),
            ),
            aliases=profile.aliases,
            description=summaries[name],
        )
        for name, profile in profiles.items()
    }


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
        OptionError: the name is taken by another variant, or is not a non-empty string
            (an `OptionTypeError`, also a TypeError, when it is not a string at all).
        ArgumentTypeError: ``rules`` is not a `RuleSet`.
    """
    if not isinstance(name, str):
        raise OptionTypeError(f"a variant name is a non-empty string: {quote(name)}")
    if not name or len(name) > 100:
        raise OptionError(f"a variant name is a non-empty string of at most 100 characters: {quote(name)}")
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"register_variant needs a RuleSet (from get_rules), not {quote(rules)}")
    if not isinstance(aliases, (tuple, list)) or not all(isinstance(a, str) and a for a in aliases):
        raise OptionTypeError(f"aliases are a tuple of non-empty strings, not {quote(aliases)}")
    aliases = tuple(aliases)
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
        raise VariantTypeError(f"a variant name is a string, not {quote(name)}")
    key = _ALIASES.get(name) or (_ALIASES.get(name.strip().lower()) if name.isascii() else None)
    if key is None:
        known = ", ".join(available_variants())
        raise UnknownVariantError(f"unknown variant {quote(name)}; known variants: {known}")
    return _PRESETS[key]


def get_rules(name: str | RuleSet, /, **options: Any) -> RuleSet:
    """The validated rule set of a registered variant, with options changed.

    >>> rules = get_rules("bezique", target=1500)
    >>> rules.options["target"], rules.players
    (1500, 2)

    Raises:
        UnknownVariantError: no such variant; the message lists the known names
            (a `VariantTypeError`, also a TypeError, when ``name`` is not a string).
        OptionError: an unknown option, a bad value, or options that cannot go
            together; the message names the option, the value and what is allowed
            (an `OptionTypeError`, also a TypeError, for a value of the wrong type).
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
            f"written under behaviour version {quote(version)} of {name!r}; this library knows up to {current.version}"
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


PickleKey = tuple[str, tuple[tuple[str, OptionValue], ...], int]
"""How a registered rule set pickles: its variant name, its options and its behaviour version."""


def pickle_key(rules: RuleSet) -> PickleKey | None:
    """The key ``rules`` pickles as, when the registry gives back this rule set (or an equal
    one) for its name and options; None for a rule set the registry cannot rebuild (built by
    hand, or with parts swapped in), which then pickles its parts."""
    try:
        found = preset(rules.name).rules(dict(rules.option_values))
    except BeziqueRulesError:
        return None
    if found is not rules and found != rules:
        return None
    return (rules.name, rules.option_values, rules.version)


def rules_from_key(name: str, options: tuple[tuple[str, OptionValue], ...], version: int) -> RuleSet:
    """The registry's rule set for a pickled key (see `pickle_key`): the same object, with its
    tables, that `get_rules` gives for these options.

    Raises:
        UnknownVariantError: the variant is not registered in this process (register a
            variant of your own, `register_variant`, before unpickling its values).
        OptionError: the options, or the behaviour version, are not this library's (a value
            pickled by another release: records, `bezique_rules.replay`, are the format that
            lasts).
    """
    try:
        found = preset(name)
    except UnknownVariantError:
        raise UnknownVariantError(
            f"a pickled rule set of variant {quote(name)}, which is not registered here; "
            "register it (register_variant) before unpickling"
        ) from None
    rules = found.rules(dict(options))
    if rules.version != version:
        raise OptionError(
            f"a pickled rule set of {name!r} behaviour version {quote(version)}; this library plays version "
            f"{rules.version} (keep a record, bezique_rules.record_of, to replay across releases)"
        )
    return rules


_UNPICKLED: weakref.WeakValueDictionary[RuleSet, RuleSet] = weakref.WeakValueDictionary()
"""Rule sets unpickled from their parts, one per equal rule set while it is in use."""


def rules_from_parts(parts: tuple[tuple[str, Any], ...]) -> RuleSet:
    """A rule set unpickled from its parts (one the registry cannot rebuild, see `pickle_key`):
    the rule set already unpickled (or copied) equal to it while that one is in use, so that
    equal rule sets share one object and its tables; else a new one, sharing the tables of
    a registry rule set with the same deal parts when there is one (its variant's defaults
    first)."""
    rules = RuleSet(**dict(parts))
    try:
        hash(rules)
        twin_key: Any = rules.table_key()
        hash(twin_key)
    except TypeError:  # a part that cannot be hashed: a rule set of its own
        return rules
    with BUILD_LOCK:
        found = _UNPICKLED.get(rules)
        if found is not None:
            return found
        defaults = _DEFAULTS.get(_ALIASES.get(rules.name, ""))
        with _BUILT_LOCK:
            twin = _TWINS.get(twin_key)
        if defaults is not None and defaults[1].table_key() == twin_key:
            twin = defaults[1]  # its variant's defaults, kept for good
        if twin is not None:
            rules.share_tables(twin)
        _UNPICKLED[rules] = rules
    return rules
