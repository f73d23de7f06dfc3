// Retention by routing (issue 57; training/retention/fallback.py, models/known_fallback.py): fine-tuning
// as without it; the archive keeps the pre-trained parser too, and an utterance whose fine-tuned
// answer uses no new predicate is answered by the pre-trained parser. Exact match on new-predicate
// queries is the fine-tuned parser's; shares the pre-trained archive.
{ retention: [{ type: 'pretrained_fallback' }] }
