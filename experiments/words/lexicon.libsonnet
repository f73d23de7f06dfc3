// The string-similarity feature also compares utterance words with the shipped predicate lexicon.
{ variant: 'lexicon', lexicon: true }
