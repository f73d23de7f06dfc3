"""
Serving a parser that keeps learning (`allennlp serve`): the state directory and its SQLite store,
teaching jobs, the parser answering with the active version, the teaching process and the HTTP API
with its page. Nothing here imports the command layer; `teach` is handed in where a job runs it.
"""
