// Words as static subword vectors from the packaged MiniLM's input embedding matrix (frozen), under
// the BiLSTM. Everything else as in the faithful experiment.
local pp = import '../common/proto_parser.libsonnet';
{ variant: 'static', words: pp.words.static() }
