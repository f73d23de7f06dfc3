// The Coarse2Fine baseline (Dong & Lapata 2018): sketch decoder, sketch encoder, fine decoder with
// copying of utterance entities, in the pt / cb / os settings of settings.libsonnet. Sizes as our
// other baselines: word embeddings 200, hidden 256, Adam.
local settings = import 'settings.libsonnet';
local words = import 'words.libsonnet';

{
  system:: {
    name: 'coarse2fine',
    batch_size: 32,
    epochs(dataset):: { jobs: 60, geo: 60, atis: 30 }[dataset],
    // Utterance words: null keeps the random 200-d embedding below; a `pp.words` option replaces it.
    words:: null,
    reader(dataset):: { type: 'fewshot_coarse2fine', formalism: if dataset == 'jobs' then 'prolog' else 'lambda' }
                      + words.indexers(self.words, 'token_indexers'),
    model(dataset, finetuning):: local w = self.words; {
      type: 'coarse2fine',
      source_embedder: { token_embedders: { tokens: { type: 'embedding', embedding_dim: 200 } } },
      encoder: { type: 'lstm', input_size: 200, hidden_size: 128, bidirectional: true },
      sketch_embedding_dim: 128,
      dropout: 0.3,
      max_sketch_steps: 100,
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
