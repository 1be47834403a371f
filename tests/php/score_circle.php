<?php
// The seed post's scoreCircle, verbatim, with a driver for the differential test
// (tests/unit/test_seed.py). Reads one JSON answer per line on stdin and prints one result per
// line: the score via var_export (shortest round-trip float), or "ERROR <class>" when PHP throws.
// With the argument "round", reads one float per line and prints var_export(round($x, 2)).
error_reporting(E_ERROR);
ini_set('serialize_precision', '-1');

function scoreCircle($data)
{
    if (
        !isset($data['points']) ||
        !is_array($data['points']) ||
        count($data['points']) < 5
    ) {
        return 0;
    }

    $points = $data['points'];
    $n = count($points);

    // === 1. Центр фигуры (centroid) ===
    $sumX = 0;
    $sumY = 0;

    foreach ($points as $p) {
        if (!isset($p['x']) || !isset($p['y'])) continue;
        $sumX += $p['x'];
        $sumY += $p['y'];
    }

    $cx = $sumX / $n;
    $cy = $sumY / $n;

    // === 2. Радиусы до центра ===
    $radii = [];

    foreach ($points as $p) {
        if (!isset($p['x']) || !isset($p['y'])) continue;

        $dx = $p['x'] - $cx;
        $dy = $p['y'] - $cy;

        $radii[] = sqrt($dx * $dx + $dy * $dy);
    }

    if (count($radii) < 5) return 0;

    // === 3. Средний радиус ===
    $r_mean = array_sum($radii) / count($radii);
    if ($r_mean <= 0) return 0;

    // === 4. Средняя нормализованная ошибка ===
    $error_sum = 0;

    foreach ($radii as $r) {
        $error_sum += abs($r - $r_mean) / $r_mean;
    }

    $mean_error = $error_sum / count($radii);

    // === 5. Итоговый скор ===
    $score = (1 - $mean_error) * 100;

    if ($score < 0) $score = 0;
    if ($score > 100) $score = 100;

    return round($score, 2);
}

$mode = $argv[1] ?? 'score';
while (($line = fgets(STDIN)) !== false) {
    $line = rtrim($line, "\n");
    if ($mode === 'round') {
        echo var_export(round((float)$line, 2), true), "\n";
        continue;
    }
    try {
        $r = scoreCircle(json_decode($line, true));
        echo var_export((float)$r, true), "\n";
    } catch (Throwable $e) {
        echo "ERROR ", get_class($e), "\n";
    }
}
