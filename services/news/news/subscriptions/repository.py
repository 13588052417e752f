"""Every query on news.author_subscriptions. Each one is scoped by the subscriber."""

from __future__ import annotations

import uuid
from typing import Any, cast

from sqlalchemy import Row, Table, exists, func, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from feeds_runtime.db import Executor
from news.cursor import Position
from news.domain import Subscription, SubscriptionTarget, TargetKind
from news.models import AuthorSubscription

# Declared as any FromClause; a mapped class's own is its Table.
_table = cast(Table, AuthorSubscription.__table__)


def _subscription(row: AuthorSubscription | Row[Any]) -> Subscription:
    target = SubscriptionTarget(TargetKind(row.target_kind), user_id=row.target_user_id,
                                company_id=row.target_company_id)
    return Subscription(id=row.id, subscriber_user_id=row.subscriber_user_id, target=target,
                        created_at=row.created_at, deleted_at=row.deleted_at)


def _for_target(subscriber: uuid.UUID, target: SubscriptionTarget):
    return (
        select(AuthorSubscription)
        .where(
            AuthorSubscription.subscriber_user_id == subscriber,
            AuthorSubscription.target_kind == target.kind.value,
            func.coalesce(AuthorSubscription.target_user_id, AuthorSubscription.target_company_id) == target.id,
        )
        .with_for_update()
    )


def find_for_target(session: Session, subscriber: uuid.UUID, target: SubscriptionTarget) -> Subscription | None:
    """The subscriber's row for the target, soft-deleted or not, locked for the upsert."""
    row = session.scalars(_for_target(subscriber, target)).one_or_none()
    return _subscription(row) if row is not None else None


def winner_for_target(session: Session, subscriber: uuid.UUID, target: SubscriptionTarget) -> Subscription:
    """The row of a concurrent subscribe that won the unique key, locked. It exists: see the caller."""
    return _subscription(session.scalars(_for_target(subscriber, target)).one())


def insert_unless_exists(session: Session, subscriber: uuid.UUID, target: SubscriptionTarget) -> uuid.UUID | None:
    """Insert a new active row; None when a concurrent call won the unique key ux_subscriptions_target."""
    return session.execute(
        insert(_table)
        .values(
            id=uuid.uuid4(),
            subscriber_user_id=subscriber,
            target_kind=target.kind.value,
            target_user_id=target.user_id,
            target_company_id=target.company_id,
            created_by=subscriber,
            updated_by=subscriber,
        )
        .on_conflict_do_nothing()
        .returning(_table.c.id)
    ).scalar_one_or_none()


def reactivate(session: Session, subscription_id: uuid.UUID, subscriber: uuid.UUID) -> None:
    session.execute(
        update(_table)
        .where(_table.c.id == subscription_id, _table.c.subscriber_user_id == subscriber, _table.c.deleted_at.is_not(None))
        .values(deleted_at=None, deleted_by=None, updated_at=func.now(), updated_by=subscriber)
    )


def get(session: Session, subscription_id: uuid.UUID) -> Subscription | None:
    """Any subscriber's row: the caller tells 'absent' (404) from 'someone else's' (403)."""
    row = session.get(AuthorSubscription, subscription_id)
    return _subscription(row) if row is not None else None


def soft_delete(session: Session, subscription_id: uuid.UUID, subscriber: uuid.UUID) -> None:
    session.execute(
        update(_table)
        .where(_table.c.id == subscription_id, _table.c.subscriber_user_id == subscriber, _table.c.deleted_at.is_(None))
        .values(deleted_at=func.now(), deleted_by=subscriber, updated_at=func.now(), updated_by=subscriber)
    )


def list_active(
    session: Executor, subscriber: uuid.UUID, after: Position | None, limit: int
) -> list[Subscription]:
    """Read by a Core statement, so that an autocommit connection serves as well as a session."""
    query = select(_table).where(_table.c.subscriber_user_id == subscriber, _table.c.deleted_at.is_(None))
    if after is not None:
        query = query.where(tuple_(_table.c.created_at, _table.c.id) < tuple_(after.at, after.id))
    query = query.order_by(_table.c.created_at.desc(), _table.c.id.desc()).limit(limit)
    return [_subscription(row) for row in session.execute(query)]


def has_active(session: Executor, subscriber: uuid.UUID) -> bool:
    return session.execute(
        select(
            exists().where(_table.c.subscriber_user_id == subscriber, _table.c.deleted_at.is_(None))
        )
    ).scalar_one()
