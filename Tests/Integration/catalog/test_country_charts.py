"""Country charts (issue 35): the default country from the locale or the
settings file, codes, names and aliases, and Deezer's own chart where there
is no Last.fm key. The stand-in's "Top COUNTRY" playlists are not
recordings (catalog.country_chart_tracks says how they are made)."""
import json
import os
import subprocess
from urllib.parse import unquote

import catalog
from helpers import PREVIEWD, Daemon, control

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def env_with(**values):
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES and not k.startswith("PREVIEWD_")}
    env.update(values)
    return env


def daemon_in(tmp_path, http, name, env, extra=()):
    return Daemon(tmp_path / name, http, extra=extra, env=env)


def chart_uris(d, *args):
    p = d.ctl("chart", *args, "--json")
    assert p.returncode == 0, p.stderr
    return [r["uri"] for r in json.loads(p.stdout)["results"]]


def deezer_chart(code, limit=25, page=1):
    """The URIs the stand-in's chart playlist of `code` lists on that page."""
    body = catalog.country_chart_tracks(catalog.COUNTRY_CHARTS[code], {"limit": [str(limit)], "index": [str((page - 1) * limit)]})
    return [f"deezer:track:{t['id']}" for t in body["data"]]


def requested(http, mark, part):
    return [unquote(x) for x in control(http, "log")[mark:] if part in x]


def test_lang_de_gives_germanys_chart(tmp_path, http):
    d = daemon_in(tmp_path, http, "de", env_with(LANG="de_DE.UTF-8"))
    try:
        mark = len(control(http, "log"))
        assert chart_uris(d, "--country") == deezer_chart("DE")
        assert requested(http, mark, "/playlist/") == ["/api/playlist/1111143121/tracks?index=0&limit=25"]
        assert chart_uris(d, "--country", "--limit", "5", "--page", "2") == deezer_chart("DE", 5, 2)
        assert "# country: default (LANG=de_DE.UTF-8)\ncountry = DE\n" in subprocess.run(
            [PREVIEWD, "--print-config"], capture_output=True, text=True, env=env_with(LANG="de_DE.UTF-8")).stdout
    finally:
        d.close()


def test_the_locale_is_read_as_posix_picks_the_messages_one():
    for env, country in [(dict(LANG="en_US.UTF-8"), "US"), (dict(LC_ALL="fr_FR.UTF-8", LANG="de_DE.UTF-8"), "FR"),
                         (dict(LC_MESSAGES="es_ES@euro", LANG="de_DE.UTF-8"), "ES"),
                         (dict(LC_ALL="", LANG="en_GB.utf8"), "GB"), (dict(LANG="C.UTF-8"), None), ({}, None)]:
        out = subprocess.run([PREVIEWD, "--print-config"], capture_output=True, text=True, env=env_with(**env)).stdout
        line = next(l for l in out.splitlines() if l.startswith("# country: "))
        if country:
            assert f"{line}\ncountry = {country}\n" in out, (env, out)
        else:
            assert line == "# country: default: none (no locale names one)", (env, line)


def test_the_settings_file_overrides_the_locale(tmp_path, http):
    conf = tmp_path / "previewd.conf"
    conf.write_text("country = United Kingdom\n")
    d = daemon_in(tmp_path, http, "gb", env_with(LANG="de_DE.UTF-8"), extra=("--config", str(conf)))
    try:
        assert chart_uris(d, "--country") == deezer_chart("GB")
    finally:
        d.close()
    out = subprocess.run([PREVIEWD, "--config", str(conf), "--print-config"], capture_output=True, text=True,
                         env=env_with(LANG="de_DE.UTF-8")).stdout
    assert f"# country: {conf}:1\ncountry = United Kingdom\n" in out
    conf.write_text("country = Narnia\n")
    p = subprocess.run([PREVIEWD, "--config", str(conf)], capture_output=True, text=True, env=env_with(), timeout=30)
    assert p.returncode == 64
    assert p.stderr.startswith(f'previewd: {conf}:1: country: unknown country "Narnia" (ISO codes such as DE, '), p.stderr
    p = subprocess.run([PREVIEWD, "--country", "Germny"], capture_output=True, text=True, env=env_with(), timeout=30)
    assert (p.returncode, p.stderr) == (64, 'previewd: --country: unknown country "Germny" (ISO codes such as DE, '
                                            'English names such as Germany, and UK, USA work); close: Germany\n')


def test_codes_names_and_aliases_all_name_one_country(tmp_path, http):
    d = daemon_in(tmp_path, http, "any", env_with(LANG="C"))
    try:
        for words in ["US", "usa", "United States", "united states of america", "America"]:
            assert chart_uris(d, "--country", words) == deezer_chart("US"), words
        for words in ["UK", "GB", "gbr", "Great Britain", "United Kingdom"]:
            assert chart_uris(d, "--country", words) == deezer_chart("GB"), words
        p = d.ctl("chart", "--country", "texas")
        assert p.returncode == 1 and p.stderr.startswith(
            'previewctl: catalogchart: unknown country "texas" (ISO codes such as DE'), p.stderr
        p = d.ctl("chart", "--country")
        assert (p.returncode, p.stderr) == (1, "previewctl: catalogchart: no country of your own: set country = CODE in "
                                               "the settings file (previewd --print-config names it) or start previewd "
                                               "with --country CODE or a locale such as LANG=de_DE.UTF-8\n")
        # What Deezer has no chart of needs Last.fm, and the one line says how to give it a key.
        p = d.ctl("chart", "artists", "--country", "US")
        assert p.returncode == 1 and p.stderr.startswith(
            "previewctl: catalogchart: Last.fm charts need an API key: start previewd with --lastfm-key KEY"), p.stderr
    finally:
        d.close()


def test_with_a_key_lastfm_gets_isos_english_name(tmp_path, http):
    d = daemon_in(tmp_path, http, "key", env_with(LANG="en_US.UTF-8"),
                  extra=("--lastfm-key", "test-key", "--lastfm-base", http + "/lastfm/2.0/"))
    try:
        for words in ["usa", "US", "United States", ""]:
            mark = len(control(http, "log"))
            args = ["--country", words] if words else ["--country"]
            p = d.ctl("chart", *args, "--limit", "5", "--page", "2", "--json")
            assert p.returncode == 0, (words, p.stderr)
            sent = requested(http, mark, "/lastfm/")
            assert len(sent) == 1 and "country=United States&" in sent[0] + "&", (words, sent)
            assert json.loads(p.stdout)["total"] > 0
        mark = len(control(http, "log"))
        d.ctl("chart", "artists", "--country", "UK")
        assert "country=United Kingdom" in requested(http, mark, "/lastfm/")[0]
    finally:
        d.close()
