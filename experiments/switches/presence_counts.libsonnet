// The faithful configuration with the paper's P(a | x), count(a, x) / count(x) with each example
// counted once, instead of the authors' occurrence counts (docs/reproduction.md row 18). Own pre-trained archive.
{ variant: 'presence-counts', conditional_counts: 'presence' }
