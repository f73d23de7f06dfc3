// Supervised ProtoParser on the geo training set (the sanity benchmark overrides the data paths
// with a held-out split: benchmarks/supervised_sanity.py).
local data = import '../common/data.libsonnet';
(import '../common/proto_parser.libsonnet').supervised('geo', data.train('geo', 1, 0), data.query('geo', 1, 0), epochs=60)
