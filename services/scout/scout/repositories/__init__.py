"""Every query of the scout schema, one repository per table. Each query names its owner; each
returns the context's domain values (scout.domain), never rows."""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Row

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

V = TypeVar("V", bound="DataclassInstance")


def value_of(cls: type[V], row: Row[Any]) -> V:
    """The domain value of a row whose columns name the value's fields (any other column is left out)."""
    columns = row._mapping
    return cls(**{field.name: columns[field.name] for field in fields(cls)})
