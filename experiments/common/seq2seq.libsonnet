// The Seq2Seq baseline: allennlp-models' simple_seq2seq (BiLSTM encoder, LSTM decoder with
// Luong-style dot-product attention) over LF tokens, as in the paper's comparison, in the pt / cb /
// os settings of settings.libsonnet.
local settings = import 'settings.libsonnet';
local words = import 'words.libsonnet';

{
  system:: {
    name: 'seq2seq',
    batch_size: 32,
    epochs(dataset):: { jobs: 60, geo: 60, atis: 30 }[dataset],
    // Utterance words: null keeps the random 200-d embedding below; a `pp.words` option replaces it.
    words:: null,
    reader(dataset):: local w = self.words; {
      type: 'fewshot_seq2seq',
      formalism: if dataset == 'jobs' then 'prolog' else 'lambda',
      source_token_indexers: { tokens: { type: 'single_id', namespace: 'source_tokens' } },
      target_token_indexers: { tokens: { type: 'single_id', namespace: 'target_tokens' } },
    } + words.indexers(w, 'source_token_indexers'),
    model(dataset, finetuning):: local w = self.words; {
      type: 'fewshot_seq2seq',
      source_embedder: { token_embedders: { tokens: { type: 'embedding', vocab_namespace: 'source_tokens', embedding_dim: 200 } } },
      encoder: { type: 'lstm', input_size: 200, hidden_size: 128, bidirectional: true, num_layers: 1 },
      attention: { type: 'dot_product' },
      target_namespace: 'target_tokens',
      target_embedding_dim: 128,
      beam_search: { beam_size: 1, max_steps: 100 },
      use_bleu: false,
    } + words.embedders(w),
    trainer(epochs, lr):: {
      num_epochs: epochs,
      optimizer: { type: 'adam', lr: if lr == null then 0.002 else lr },
      grad_norm: 5.0,
      cuda_device: -1,
      checkpointer: { keep_most_recent_by_count: 1 },
    },
  },

  // One complete experiment for a dataset, shot and setting ('pt', 'cb' or 'os').
  experiment(dataset, shot, setting):: settings.experiment($.system, dataset, shot, setting),

  // The same with other utterance words (`pp.words.<option>`), pre-trained under its own name.
  with_words(option, name):: words.with_words($, option, name),
}
