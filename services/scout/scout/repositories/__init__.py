"""Every query of the scout schema, one repository per table. Each query names its owner."""
