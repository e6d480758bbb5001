-- Run through the sqlite3 shell of both builds by run-project (sqlite3); the
-- output must be identical.
.headers on
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL, d BLOB);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
INSERT INTO t SELECT i, printf('%08d', i * 7919 % 10007), i * 0.25 - 100.0,
                     zeroblob(i % 17) FROM n;
SELECT count(*), sum(a), total(c), min(b), max(b), sum(length(d)) FROM t;
CREATE INDEX tb ON t(b);
SELECT a, b FROM t WHERE b BETWEEN '00001000' AND '00001010' ORDER BY b, a LIMIT 8;
SELECT b, count(*) AS n FROM t GROUP BY b HAVING n > 1 ORDER BY n DESC, b LIMIT 5;
UPDATE t SET c = c * 2 WHERE a % 3 = 0;
DELETE FROM t WHERE a % 5 = 0;
SELECT count(*), round(total(c), 4), group_concat(a % 10, '') FROM (SELECT * FROM t ORDER BY c DESC LIMIT 30);
PRAGMA integrity_check;
