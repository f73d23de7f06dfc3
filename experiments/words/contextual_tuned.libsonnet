// The packaged MiniLM as a contextual encoder trained with the parser (learning rate 5e-5 for its
// weights), under the BiLSTM. Expensive on a CPU: see the speed figures in the README.
local pp = import '../common/proto_parser.libsonnet';
{ variant: 'contextual-tuned', words: pp.words.contextual(true), encoder_lr: 5e-5 }
