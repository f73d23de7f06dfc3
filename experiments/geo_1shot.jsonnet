// The main experiment: GeoQuery 1-shot on one split ($FEWSHOT_SPLIT, default 1).
// Until the ProtoParser model lands this runs the Seq2Seq (cb) baseline.
import 'baselines/seq2seq_cb_geo_1shot.jsonnet'
