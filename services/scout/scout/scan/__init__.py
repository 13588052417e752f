"""The scan job: claiming, running the search pipeline, publishing or failing its run."""
