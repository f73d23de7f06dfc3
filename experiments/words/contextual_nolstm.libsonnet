// Frozen contextual MiniLM words fed to the decoder directly (no BiLSTM on top).
local pp = import '../common/proto_parser.libsonnet';
{ variant: 'contextual-nolstm', words: pp.words.contextual(), lstm: false }
