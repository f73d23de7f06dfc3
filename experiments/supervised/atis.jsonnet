// Supervised ProtoParser on the atis training set (the sanity benchmark overrides the data paths
// with a held-out split: benchmarks/supervised_sanity.py).
local data = import '../common/data.libsonnet';
(import '../common/proto_parser.libsonnet').supervised('atis', data.train('atis', 1, 0), data.query('atis', 1, 0), epochs=60)
