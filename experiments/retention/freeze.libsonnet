// Retention by freezing (issue 57; training/retention/freezing.py): fine-tuning trains only the new
// actions' rows (output rows and the authors' decoder's input rows); every pre-trained weight keeps
// its value. Fine-tuning only: shares the faithful pre-trained archive.
{ retention: [{ type: 'freezing' }] }
