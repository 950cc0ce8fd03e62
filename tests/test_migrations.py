"""Migrations: empty → head → empty on both backends, and the result matches the models."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import CheckConstraint, inspect
from sqlalchemy.engine import URL

from moderator import resources
from moderator.store import migrate
from moderator.store.db import make_engine
from moderator.store.models import Base

MODEL_TABLES = set(Base.metadata.tables)


def _tables(url: URL) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_migrations_folder_is_found_without_alembic_ini() -> None:
    folder = migrate.migrations_dir()
    assert (folder / "env.py").is_file()
    assert not (folder / "alembic.ini").exists()
    assert migrate.head_revision() == "0006_turns"


def test_upgrade_to_head_then_downgrade_to_base_leaves_database_empty(empty_db_url: URL) -> None:
    assert _tables(empty_db_url) == set()
    migrate.upgrade(empty_db_url)
    assert _tables(empty_db_url) == MODEL_TABLES | {"alembic_version"}
    assert migrate.current_revision(empty_db_url) == migrate.head_revision()

    migrate.downgrade(empty_db_url, "base")
    assert _tables(empty_db_url) <= {"alembic_version"}
    assert migrate.current_revision(empty_db_url) is None

    # And back up again: the downgrade left nothing behind that gets in the way.
    migrate.upgrade(empty_db_url)
    assert migrate.current_revision(empty_db_url) == migrate.head_revision()


def test_upgrade_at_head_is_a_no_op(empty_db_url: URL) -> None:
    migrate.upgrade(empty_db_url)
    migrate.upgrade(empty_db_url)
    assert migrate.current_revision(empty_db_url) == migrate.head_revision()


def test_migrated_schema_matches_the_models(empty_db_url: URL) -> None:
    migrate.upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            differences = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_migrated_unique_indexes_are_partial_where_the_models_say_so(empty_db_url: URL) -> None:
    # compare_metadata does not look at an index's WHERE clause; check it here.
    migrate.upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    try:
        indexes = {ix["name"]: ix for ix in inspect(engine).get_indexes("queued_orders")}
        indexes.update({ix["name"]: ix for ix in inspect(engine).get_indexes("seats")})
    finally:
        engine.dispose()
    key = f"{engine.dialect.name}_where"
    assert "superseded" in str(indexes["uq_queued_orders_active"]["dialect_options"][key])
    assert "active" in str(indexes["uq_seats_game_id_seat_index_active"]["dialect_options"][key])


def test_migrated_check_and_foreign_key_constraints_match_the_models(empty_db_url: URL) -> None:
    # compare_metadata skips CHECK constraints and ON DELETE rules; compare them by hand.
    migrate.upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    try:
        inspector = inspect(engine)
        for table in Base.metadata.sorted_tables:
            model_checks = {
                str(c.name) for c in table.constraints if isinstance(c, CheckConstraint)
            }
            db_checks = {str(c["name"]) for c in inspector.get_check_constraints(table.name)}
            assert db_checks == model_checks, table.name

            model_fks = {
                (str(fk.name), (fk.ondelete or "NO ACTION").upper())
                for fk in table.foreign_key_constraints
            }
            db_fks = {
                (str(fk["name"]), fk["options"].get("ondelete", "NO ACTION").upper())
                for fk in inspector.get_foreign_keys(table.name)
            }
            assert db_fks == model_fks, table.name
    finally:
        engine.dispose()


def test_migrations_do_not_depend_on_the_working_directory(
    empty_db_url: URL, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    migrate.upgrade(empty_db_url)
    assert migrate.current_revision(empty_db_url) == migrate.head_revision()
    assert os.listdir(elsewhere) == []


def test_an_installed_copy_prefers_the_packaged_migrations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wheel carries migrations/ as moderator/_data/migrations (pyproject force-include);
    # tests/test_packaging.py checks a real wheel.
    packaged = tmp_path / "moderator" / "_data" / "migrations"
    (packaged / "versions").mkdir(parents=True)
    (packaged / "env.py").write_text("")
    monkeypatch.setattr(resources, "_PACKAGE", tmp_path / "moderator")
    assert migrate.migrations_dir() == packaged


def test_the_source_tree_migrations_are_used_when_none_are_packaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resources, "_PACKAGE", tmp_path / "moderator")
    assert migrate.migrations_dir() == Path(migrate.__file__).resolve().parents[2] / "migrations"
