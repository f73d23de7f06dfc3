// "Ours + pretrained": the best combination of the options beyond the paper, chosen on shuffle 0 of
// geo and jobs (README, "Pretrained word knowledge"): the packaged MiniLM as a frozen contextual
// encoder under the BiLSTM, the shipped predicate lexicon, and lexical linking pooled by attention
// and by the best-linked word. It shares its pre-trained archives with words/contextual_linking.
import '../words/contextual_linking.libsonnet'
