import subprocess

from fewshot_lab.code_versions import rows_since, since


def commit(repo, message):
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", message], check=True)
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()


def test_rows_of_a_commit_and_its_successors_count_dirty_or_not(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "config", "user.email", "t@example.com"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "config", "user.name", "t"], check=True)
    first, second, third = (commit(tmp_path, name) for name in ("one", "two", "three"))
    assert since(second, str(tmp_path)) == {second, third}
    assert since(first, str(tmp_path)) == {first, second, third}  # a root commit has no parent to stop at
    rows = [{"code_version": first}, {"code_version": second + "-dirty"}, {"code_version": third}, {}]
    assert rows_since(rows, second, str(tmp_path)) == rows[1:3]
