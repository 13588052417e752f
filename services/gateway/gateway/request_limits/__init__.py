"""What one caller may send: bounded requests (size) and a bounded rate per member and host key (rate)."""
