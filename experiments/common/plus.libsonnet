// "Ours + pretrained": the best combination of the options beyond the paper, chosen by the mean exact
// match over geo and jobs, 1 and 2 shots, on shuffle 0 (lab/results/tuning/table1.md): the shipped
// predicate lexicon and lexical linking, over randomly initialised words. It shares its pre-trained
// archives with words/linking.
import '../words/linking.libsonnet'
