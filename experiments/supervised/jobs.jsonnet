// Supervised ProtoParser on the jobs training set (the sanity benchmark overrides the data paths
// with a held-out split: benchmarks/supervised_sanity.py).
local data = import '../common/data.libsonnet';
(import '../common/proto_parser.libsonnet').supervised('jobs', data.train('jobs', 1, 0), data.query('jobs', 1, 0), epochs=60)
