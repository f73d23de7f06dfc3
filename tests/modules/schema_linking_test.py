import torch

from fewshot_parser.modules.schema_linking import EXACT, NONE, PARTIAL, build_schema_tables, link_batch, name_words


def test_name_words_split_names_and_drop_symbols():
    assert name_words("departure_time:i") == ["departure", "time"]
    assert name_words("state:t") == ["state"]
    assert name_words("=") == []


def test_tables_link_stems_and_pool_actions_over_their_predicates():
    tokens = ["@@PADDING@@", "@@UNKNOWN@@", "what", "departur", "time", "state", "elev"]
    actions = [(), ("departure_time:i",), ("state:t", "elevation:i"), ("=",)]
    tables, predicates = build_schema_tables(actions, tokens)
    assert predicates == ["departure_time:i", "elevation:i", "state:t"]  # `=` has no name words
    assert tables.name_mask.tolist() == [[True, True], [True, False], [True, False]]
    # The stemmed word stands for the name word it links to; padding never links.
    assert tables.name_token_ids[0].tolist() == [tokens.index("departur"), tokens.index("time")]
    assert tables.name_token_ids[1, 0].item() == tokens.index("elev")
    assert not tables.word_links[:, :, :2].any()
    assert torch.allclose(tables.action_predicates, torch.tensor([
        [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 0.0],
    ]))


def test_match_types_of_words_and_predicates():
    tokens = ["@@PADDING@@", "@@UNKNOWN@@", "what", "departur", "time", "state", "elev"]
    tables, predicates = build_schema_tables([("departure_time:i",), ("state:t",), ("elevation:i",)], tokens)
    ids = {t: i for i, t in enumerate(tokens)}
    utterances = torch.tensor([
        [ids["what"], ids["departur"], ids["time"], 0],   # the whole name: exact
        [ids["what"], ids["time"], ids["state"], 0],      # one of two name words: partial; state: exact
        [ids["what"], 0, 0, ids["elev"]],                  # a masked position links nothing
    ])
    mask = utterances != 0
    mask[2, 3] = False
    word_types, predicate_types = link_batch(tables, utterances, mask)
    column = {p: i for i, p in enumerate(predicates)}
    assert predicate_types[0, column["departure_time:i"]] == EXACT
    assert predicate_types[1, column["departure_time:i"]] == PARTIAL
    assert predicate_types[1, column["state:t"]] == EXACT
    assert predicate_types[2].tolist() == [NONE, NONE, NONE]
    assert word_types.tolist() == [[NONE, EXACT, EXACT, NONE], [NONE, PARTIAL, EXACT, NONE], [NONE, NONE, NONE, NONE]]
