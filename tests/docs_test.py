"""
The documentation names only things that exist.

README.md, lab/README.md and every docs/*.md are read as plain text (no model, no allennlp import), and every name
a reader could copy from them is checked against the repository:

* relative links, and repository paths in code (`fewshot_parser/...py`, `experiments/...jsonnet`,
  `results/...`, `lab/...`, `docs/...md`, ...), exist. Paths with placeholders (`<dataset>`, `{shot}`, `*`,
  `$VAR`) and paths outside the repository (`runs/`, `data/`, `../shared`) are skipped;
* dotted names `fewshot_parser.x.y` name a module, or a name defined at the top of one;
* `make TARGET` names a target of the Makefile;
* `allennlp COMMAND` (and `python -m fewshot_parser COMMAND`) names a subcommand of AllenNLP or one
  the plugin registers (`@Subcommand.register(...)` in fewshot_parser/commands/);
* grid systems after `--systems` (and `SYSTEM=` of `make run`) are rows of experiments/systems.jsonnet
  or lab/systems.jsonnet;
* the component keys named in the marked components table of docs/experiments.md are keys of the
  configs (experiments/*.jsonnet, lab/systems.jsonnet).

"Code" is what a reader copies: fenced and indented code blocks and `inline code` spans.
"""
import glob
import os
import re
from typing import Dict, Iterator, List, Set, Tuple

import pytest

from tests import PROJECT_ROOT

DOCS = ["README.md", "lab/README.md"] + sorted(
    os.path.relpath(path, PROJECT_ROOT) for path in glob.glob(os.path.join(PROJECT_ROOT, "docs", "*.md"))
)

# Code tokens starting with these are repository paths and must exist.
PATH_PREFIXES = (
    "fewshot_parser/", "experiments/", "benchmarks/", "results/", "lab/", "docs/", "fixtures/", "tests/", ".ci/",
)
TOP_LEVEL_FILES = {"README.md", "Makefile", "setup.py", "requirements.lock", ".allennlp_plugins", "pytest.ini"}
# Not in the repository (made by running things, or beside the checkout).
OUTSIDE_REPOSITORY = ("runs/", "data/", "../shared", "/")
PLACEHOLDER_CHARACTERS = set("<{*$")

ALLENNLP_SUBCOMMANDS = {
    "train", "evaluate", "predict", "find-lr", "test-install", "build-vocab", "cached-path", "print-results",
    "diff", "count-instances", "checklist", "push-to-hf",
}
SWITCHES_MARK = ("<!-- components -->", "<!-- /components -->")


def read(path: str) -> str:
    with open(os.path.join(PROJECT_ROOT, path), encoding="utf-8") as handle:
        return handle.read()


# -- what the repository has ------------------------------------------------------------------------


def makefile_targets() -> Set[str]:
    targets: Set[str] = set()
    for line in read("Makefile").splitlines():
        found = re.match(r"^([A-Za-z0-9_.\- ]+?)\s*:(?!=)", line)
        if found and not line.startswith((".", "\t", "#")):
            targets.update(found.group(1).split())
    return targets


def plugin_subcommands() -> Set[str]:
    names: Set[str] = set()
    # The product's subcommands and the checkout's lab package's (`report`, `certify`).
    paths = glob.glob(os.path.join(PROJECT_ROOT, "fewshot_parser", "commands", "*.py"))
    for path in paths + glob.glob(os.path.join(PROJECT_ROOT, "lab", "fewshot_lab", "commands", "*.py")):
        with open(path, encoding="utf-8") as handle:
            names.update(re.findall(r"@Subcommand\.register\(\s*[\"']([^\"']+)[\"']", handle.read()))
    return names


def grid_systems() -> Dict[str, tuple]:
    """The grid's systems: the rows of experiments/systems.jsonnet and lab/systems.jsonnet (name -> (system,
    setting, table)), read with Jsonnet alone."""
    import json

    import _jsonnet

    systems = {}
    for table in ("experiments/systems.jsonnet", "lab/systems.jsonnet"):
        path = os.path.join(PROJECT_ROOT, table)
        snippet = f"[[r.name, r.system, r.setting] for r in import {json.dumps(path)}]"
        for name, system, setting in json.loads(_jsonnet.evaluate_snippet(path, snippet)):
            systems[name] = (system, setting, table)
    return systems


def jsonnet_libraries() -> str:
    """The text of the configs: the bases of experiments/ and the systems tables."""
    paths = sorted(glob.glob(os.path.join(PROJECT_ROOT, "experiments", "*sonnet"))) + [
        os.path.join(PROJECT_ROOT, "lab", "systems.jsonnet")]
    return "\n".join(read(os.path.relpath(path, PROJECT_ROOT)) for path in paths)


class Repository:
    """What the checks compare against, read once."""

    def __init__(self) -> None:
        self.targets = makefile_targets()
        self.subcommands = ALLENNLP_SUBCOMMANDS | plugin_subcommands()
        self.systems = grid_systems()
        self.libsonnet = jsonnet_libraries()


@pytest.fixture(scope="module")
def repository() -> Repository:
    return Repository()


# -- reading markdown -------------------------------------------------------------------------------

FENCE = re.compile(r"^ {0,3}```[^\n]*\n(.*?)^ {0,3}```[^\n]*$", re.S | re.M)
INLINE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def split_markdown(text: str) -> Tuple[List[str], List[str]]:
    """`(code segments, prose paragraphs)`: fenced and indented blocks and inline spans; the rest."""
    code = [match.group(1) for match in FENCE.finditer(text)]
    rest = FENCE.sub("\n", text)
    prose: List[str] = []
    block: List[str] = []
    paragraph: List[str] = []
    previous_blank = True
    for line in rest.split("\n") + [""]:
        indented = line.startswith(("    ", "\t")) and line.strip()
        if indented and (previous_blank or block) and not paragraph:
            block.append(line)
        else:
            if block:
                code.append("\n".join(block))
                block = []
            if line.strip():
                paragraph.append(line)
            elif paragraph:
                prose.append("\n".join(paragraph))
                paragraph = []
        previous_blank = not line.strip()
    for paragraph_text in prose:
        # An inline span may wrap over lines; its line breaks are spaces.
        code.extend(" ".join(match.group(2).split()) for match in INLINE.finditer(paragraph_text))
    return code, [INLINE.sub(" ", p) for p in prose]


def commands(segment: str) -> Iterator[List[str]]:
    """The shell commands of a code segment, as token lists (continuations joined, comments dropped)."""
    joined = re.sub(r"\\\n\s*", " ", segment)
    for line in joined.split("\n"):
        line = re.sub(r"(^|\s)#.*$", "", line)
        for command in re.split(r"&&|\|\||;|\|", line):
            tokens = command.split()
            if tokens:
                yield tokens


def is_placeholder(token: str) -> bool:
    return bool(PLACEHOLDER_CHARACTERS & set(token)) or "..." in token or "…" in token or token.isupper()


# -- the checks -------------------------------------------------------------------------------------


def path_problems(token: str) -> List[str]:
    token = token.strip("'\"`()[],;")
    if "," in token.strip(","):  # a list of paths (`a.csv,b.csv`): each must exist
        return [problem for part in token.split(",") for problem in path_problems(part)]
    token = token.split("=")[-1].split("::")[0]
    token = re.sub(r":\d+(-\d+)?$", "", token).rstrip(".,;:)")
    if not token or token.startswith(OUTSIDE_REPOSITORY) or PLACEHOLDER_CHARACTERS & set(token):
        return []
    if not (token.startswith(PATH_PREFIXES) or token in TOP_LEVEL_FILES):
        return []
    if os.path.exists(os.path.join(PROJECT_ROOT, token)):
        return []
    return [f"path `{token}` does not exist"]


def module_problems(name: str) -> List[str]:
    """`fewshot_parser.a.b[.attribute]`: packages and modules must exist; one trailing name must be defined."""
    parts = name.split(".")
    path = os.path.join(PROJECT_ROOT, parts[0])
    for position, part in enumerate(parts[1:], start=1):
        if os.path.isdir(os.path.join(path, part)):
            path = os.path.join(path, part)
            continue
        module = os.path.join(path, part + ".py")
        if os.path.isfile(module):
            path = module
            continue
        rest = parts[position:]
        source_path = path if path.endswith(".py") else os.path.join(path, "__init__.py")
        if len(rest) == 1 and os.path.isfile(source_path):
            with open(source_path, encoding="utf-8") as handle:
                source = handle.read()
            if re.search(rf"^(?:def|class)\s+{re.escape(rest[0])}\b|^{re.escape(rest[0])}\s*[:=]", source, re.M):
                return []
        return [f"`{name}` names nothing in fewshot_parser ({'.'.join(parts[:position + 1])} not found)"]
    return []


def command_problems(tokens: List[str], repository: Repository) -> List[str]:
    problems = []
    for index, token in enumerate(tokens):
        following = tokens[index + 1:]
        if token == "make" or token.endswith("/make"):
            for argument in following:
                if argument.startswith("-"):
                    continue
                if "=" in argument:
                    variable, _, value = argument.partition("=")
                    if variable == "SYSTEM" and not is_placeholder(value) and value not in repository.systems:
                        problems.append(f"`make ... SYSTEM={value}`: no grid system {value!r} in the systems tables")
                    continue
                if not is_placeholder(argument) and argument not in repository.targets:
                    problems.append(f"`make {argument}`: no target {argument!r} in the Makefile")
        is_allennlp = token == "allennlp" or token.endswith("/allennlp")
        is_wrapper = token == "fewshot_parser" and index > 0 and tokens[index - 1] == "-m"
        if (is_allennlp or is_wrapper) and following and not following[0].startswith("-"):
            subcommand = following[0]
            if not is_placeholder(subcommand) and subcommand not in repository.subcommands:
                known = ", ".join(sorted(repository.subcommands))
                problems.append(f"`{token} {subcommand}`: no such subcommand (known: {known})")
        if token == "--systems":
            for system in following:
                if system.startswith("-"):
                    break
                system = system.rstrip(",;")
                if system != "all" and not is_placeholder(system) and system not in repository.systems:
                    problems.append(f"`--systems {system}`: no grid system {system!r} in the systems tables")
    return problems


def document_problems(name: str, text: str, repository: Repository) -> List[str]:
    """Every problem of one markdown document, each prefixed with `name:line`."""
    problems: List[Tuple[str, str]] = []  # (text to locate, message)
    code, prose = split_markdown(text)
    for segment in code:
        for tokens in commands(segment):
            problems.extend((segment, message) for message in command_problems(tokens, repository))
            for token in tokens:
                problems.extend((token, message) for message in path_problems(token))
        for dotted in re.findall(r"\bfewshot_parser(?:\.[A-Za-z_]\w*)+", segment):
            problems.extend((dotted, message) for message in module_problems(dotted))
    directory = os.path.dirname(os.path.join(PROJECT_ROOT, name))
    for paragraph in prose:
        for target in LINK.findall(paragraph):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.split("#")[0]
            if path and not os.path.exists(os.path.normpath(os.path.join(directory, path))):
                problems.append((target, f"link ({target}) points at nothing"))
    located = []
    for needle, message in problems:
        offset = text.find(needle)
        line = text.count("\n", 0, offset) + 1 if offset >= 0 else 0
        located.append(f"{name}:{line}: {message}")
    return sorted(set(located))


def marked(text: str, marks: Tuple[str, str]) -> str:
    start, end = text.find(marks[0]), text.find(marks[1])
    assert 0 <= start < end, f"docs/experiments.md has no section between {marks[0]} and {marks[1]}"
    return text[start:end]


def top_level_settings(span: str) -> List[str]:
    """The names `x` of `x: value` in a Jsonnet snippet, outside braces and brackets (nested keys are values)."""
    names, depth = [], 0
    for match in re.finditer(r"[{\[(]|[}\])]|(?:^|(?<=[\s,]))([a-z_][a-z0-9_]*):\s", span):
        token = match.group(0)
        if token in "{[(":
            depth += 1
        elif token in "}])":
            depth -= 1
        elif depth == 0:
            names.append(match.group(1))
    return names


def switch_problems(table: str, repository: Repository) -> Tuple[int, List[str]]:
    """The component keys of the components table (`name: ...`): each a key of some config."""
    checked, problems = 0, []
    for span in re.findall(r"`([^`]+)`", table):
        for setting in top_level_settings(span):
            checked += 1
            if not re.search(rf"\b{setting}\s*:", repository.libsonnet):
                problems.append(f"component key `{setting}:` is in no config of experiments/ or lab/systems.jsonnet")
    return checked, problems


# -- tests ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", DOCS)
def test_the_document_names_only_what_exists(name: str, repository: Repository):
    problems = document_problems(name, read(name), repository)
    assert not problems, "\n".join(problems)


def test_the_components_table_names_config_keys(repository: Repository):
    checked, problems = switch_problems(marked(read("docs/experiments.md"), SWITCHES_MARK), repository)
    assert checked >= 10, f"only {checked} keys found in the components table"
    assert not problems, "\n".join(problems)


def test_the_readme_is_a_first_hour_read():
    readme = read("README.md")
    assert len(readme.splitlines()) <= 150, "README.md is meant to stay at most 150 lines; move detail into docs/"
    section = re.search(r"^## The two commands$(.*?)(?=^## )", readme, re.S | re.M)
    assert section, "README.md has no section 'The two commands'"
    # CI (.ci/run) runs the README's test command.
    for command in ("make geo-1shot", "make test"):
        assert command in section.group(1), f"README.md's 'The two commands' no longer shows `{command}`"


# Longest a document may grow (README's own limit is checked above); past it, detail belongs in lab/.
LINE_LIMITS = {"docs/results.md": 400, "docs/reproduction.md": 500}
GENERATED_BLOCK = re.compile(r"<!-- ([\w-]+): generated by [^>]*-->.*?<!-- end of \1 -->", re.S)
HISTORY = re.compile(r"\b(?:issues?|stops?) \d", re.I)


def test_the_documents_say_what_is_not_how_it_came_about():
    """docs/ and README stay within their lengths and name no issue or stop: history lives in lab/history/."""
    for name, limit in LINE_LIMITS.items():
        lines = len(read(name).splitlines())
        assert lines <= limit, f"{name} has {lines} lines (at most {limit}); move history and detail into lab/"
    for name in DOCS:
        if name.startswith("lab/"):
            continue
        text = GENERATED_BLOCK.sub("", read(name))  # generated blocks are the generators' to word
        found = [line for line in text.splitlines() if HISTORY.search(line)]
        assert not found, f"{name} narrates history (move it to lab/history/):\n" + "\n".join(found)


def test_the_checks_catch_typos(repository: Repository):
    """Each kind of misspelling a document could carry is reported."""
    text = "\n".join([
        "Run `make geo-1sht`, then `allennlp run-gird --systems plus plsu` and `make run SYSTEM=ourz`;",
        "a span may wrap: `allennlp run-grid --systems ours",
        "unifeid --datasets geo`.",
        "",
        "    python -m fewshot_parser inspect-dta data",
        "    python benchmarks/sped.py --words static",
        "",
        "See `fewshot_parser/models/proto_parsr.py`, `fewshot_parser.models.proto_parser.NoSuchClass`,",
        "[the results](results/tabel1.md) and `experiments/{dataset}_{shot}shot.jsonnet` (a placeholder).",
    ])
    problems = "\n".join(document_problems("README.md", text, repository))
    for typo in ["geo-1sht", "run-gird", "plsu", "ourz", "unifeid", "inspect-dta", "benchmarks/sped.py",
                 "proto_parsr.py", "NoSuchClass", "results/tabel1.md"]:
        assert typo in problems, f"{typo!r} was not reported:\n{problems}"
    assert "{dataset}" not in problems and "`plus`" not in problems
    # Misspelt: `lexcon`; `x` is a nested key, a value rather than a component key.
    components = " | ".join(["`lexicon: 'geo'`", "`lexcon: 1`", "`rerankers: [{ x: 1 }]`"])
    checked, found = switch_problems(components, repository)
    assert checked == 3 and len(found) == 1 and "lexcon" in found[0], found
