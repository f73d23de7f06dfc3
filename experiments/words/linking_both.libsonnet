// Lexical linking pooled both ways: through each step's attention and by the best-linked word of the
// utterance (each with its own learned weight), with the shipped predicate lexicon.
{ variant: 'linking-both', lexicon: true, lexical_linking: true, link_pooling: 'both' }
