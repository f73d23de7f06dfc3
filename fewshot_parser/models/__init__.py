from fewshot_parser.models.seq2seq import FewShotSeq2Seq
