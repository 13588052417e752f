"""The gateway's OpenAPI contract: the shapes its bodies take, the codes its errors carry, what each
operation answers, and the document built from them (docs/architecture.md, "REST envelopes")."""
