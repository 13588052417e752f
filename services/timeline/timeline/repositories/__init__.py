"""Every query of the timeline schema, one repository per concern. Each query is scoped by tenant;
the caller's session owns the transaction (reads of one statement may run on an autocommit
connection, which has the same `execute`).

Locks, so that a projection job never commits an entry that a concurrent change has already
cleaned up: fan-out chunks, pair syncs, merges and rebuilds hold the post rows `FOR SHARE` and a
shared advisory lock on the follower graph of the authors (a rebuild also on the viewer's); delete
and moderation update the post row; follow, unfollow, block and unblock take the graph lock of the
users concerned exclusively. A clean-up job queued by such a change therefore starts after every
projection that read the old state has committed. (An advisory lock rather than row locks on the
follow rows: a chunk would otherwise write a lock into thousands of tuples.) Whatever moves a
viewer's horizon (trim, merge, rebuild) first takes that viewer's window lock, so they apply one at
a time.
"""
