// The faithful configuration with randomly initialised word embeddings instead of GloVe: the
// faithful row as it was before GloVe was available offline, kept beside it so that the table
// shows what the words alone change. Its own pre-trained archives (<dataset>-ours-random).
local pp = import '../common/proto_parser.libsonnet';
{ variant: 'ours-random', words: pp.words.random }
