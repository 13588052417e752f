pytest_plugins = ["devstack.testing"]
