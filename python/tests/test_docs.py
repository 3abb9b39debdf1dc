"""Every ```python example of docs/python.md runs as written (each in a fresh namespace) and its
assertions hold."""

import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_page_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_runs(number):
    if "sowlang.envs" in EXAMPLES[number]:
        pytest.importorskip("pettingzoo")
    exec(compile(EXAMPLES[number], f"docs/python.md example {number + 1}", "exec"), {})
