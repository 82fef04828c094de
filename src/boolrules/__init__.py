"""boolrules: expressive Boolean rules as interpretable classifiers."""
