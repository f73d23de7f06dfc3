"""The lab: the project's own measurement tools (the paper's tables and figures, the development suite's
report, staleness and certification of recorded rows) as a package that imports `fewshot_parser`.

It is not part of the product: `make setup` installs it in editable mode in the checkout, and the
checkout's `.allennlp_plugins` loads it beside `fewshot_parser`, so `allennlp report` and `allennlp
certify` run from the repository root as before.
"""
from setuptools import find_packages, setup

setup(
    name="fewshot_lab",
    version="0.1.0",
    description="The fewshot_parser project's lab: reports, figures, staleness and certification",
    packages=find_packages(include=["fewshot_lab", "fewshot_lab.*"]),
    python_requires=">=3.11",
    install_requires=["fewshot_parser"],
)
