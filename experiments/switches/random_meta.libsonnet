// The faithful configuration with 30 random templates per meta batch instead of a pass over every template
// (docs/reproduction.md row 22). Own pre-trained archive.
{ variant: 'random-meta', meta_sampling: 'random' }
