// Words as contextual vectors from the packaged MiniLM, frozen (outputs cached per utterance), under
// the BiLSTM. Everything else as in the faithful experiment.
local pp = import '../common/proto_parser.libsonnet';
{ variant: 'contextual', words: pp.words.contextual() }
