pytest_plugins = ["feeds_runtime.testing"]
