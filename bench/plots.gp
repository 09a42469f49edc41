# The benchmark's plots (gnuplot; run by bench/run.sh in the results dir).
set terminal pngcairo size 1000,560 noenhanced font ",10"
set grid ytics
set key top left
set ylabel "error, points (share - reference)"

set output "errors_normal.png"
set title "Ordinary guest (tick-sampled /proc/stat), cpu1: error against the workload's own CPU time"
set xtics rotate by -35
set xrange [-0.7:*]
plot "errors_normal.dat" using 1:3:xtic(2) with points pt 7 ps 1.5 lc rgb "red" title "/proc/stat user", \
     "" using ($1+0.15):4:5 with yerrorbars pt 5 lc rgb "blue" title "randstat user (95% interval)", \
     0 with lines lc rgb "black" notitle

set output "errors_nohz.png"
set title "nohz_full guest, cpu1: randstat user against the exact (vtime) user share"
plot "errors_nohz.dat" using 1:4:5:xtic(2) with yerrorbars pt 5 lc rgb "blue" title "randstat user (95% interval)", \
     0 with lines lc rgb "black" notitle

set output "convergence.png"
set title "Convergence: |randstat - exact| on iso 2 ms / 8 ms, nohz_full cpu1, over seeds"
unset xrange
set xtics norotate
set logscale xy
set xlabel "samples n"
set ylabel "error, points"
set key top right
plot "convergence_pts.dat" using 1:2 with points pt 6 lc rgb "gray" title "|error|, one seed", \
     "convergence.dat" using 1:2 with linespoints pt 7 lc rgb "blue" title "rms error over seeds", \
     "" using 1:3 with lines lw 2 lc rgb "black" title "sigma = sqrt(p(1-p)(1+cv^2)/n)"
unset logscale
set xlabel ""

set output "sweep.png"
set terminal pngcairo size 1400,480 noenhanced font ",10"
set multiplot layout 1,3 title "Ordinary guest, cpu1: where the tick breaks (red) and randstat does not (blue, 95%)"
set key top right
set ylabel "error, points"
set xlabel "period, ms (job 2 ms, 1 ms after a tick)"
set title ""
plot "sweep_period.dat" using 1:2 with linespoints pt 7 lc rgb "red" title "/proc/stat", \
     "" using 1:3:4 with yerrorbars pt 5 lc rgb "blue" title "randstat", 0 with lines lc rgb "black" notitle
set xlabel "job, ms (period 8 ms, 0.5 ms after a tick)"
plot "sweep_job.dat" using 1:2 with linespoints pt 7 lc rgb "red" title "/proc/stat", \
     "" using 1:3:4 with yerrorbars pt 5 lc rgb "blue" title "randstat", 0 with lines lc rgb "black" notitle
set xlabel "evader margin before the tick, ms"
plot "sweep_margin.dat" using 1:2 with linespoints pt 7 lc rgb "red" title "/proc/stat", \
     "" using 1:3:4 with yerrorbars pt 5 lc rgb "blue" title "randstat", 0 with lines lc rgb "black" notitle
unset multiplot

# The interference experiment (the paper's figure 2): the program's time,
# summed over the phases with and without NET_RX work on cpu1, against
# the time spent in them.
if (system("test -s interf_with.dat && echo 1") eq "1") {
set output "interference.png"
set terminal pngcairo size 1400,560 noenhanced font ",10"
set multiplot layout 1,2 title "A user-only program on cpu1, with (solid) and without (dashed) a UDP flood's softirq work steered to it"
unset logscale
set xtics norotate
set key top left
set xlabel "time in the phase, s"
set ylabel "system time charged to the program, s"
set title "System time (the paper's figure 2)"
plot "interf_with.dat" using 1:4:5 with filledcurves lc rgb "#c8d8ff" title "randstat system, 95%", \
     "" using 1:2 with lines lw 2 lc rgb "red" title "kernel stime (/proc/PID/stat), with", \
     "" using 1:3 with lines lw 2 lc rgb "blue" title "randstat system, with", \
     "" using 1:13 with lines lw 3 dt 3 lc rgb "purple" title "randstat softirq, with (not charged as system)", \
     "" using 1:14 with lines lw 1 lc rgb "dark-green" title "softirq by tracepoints (softirq_entry to _exit), with", \
     "interf_without.dat" using 1:2 with lines lw 2 dt 2 lc rgb "red" title "kernel stime, without", \
     "" using 1:3 with lines lw 2 dt 2 lc rgb "blue" title "randstat system, without", \
     0 with lines lc rgb "black" title "true (no system calls)"
set ylabel "user time, s"
set title "User time"
plot "interf_with.dat" using 1:8:9 with filledcurves lc rgb "#c8d8ff" title "randstat user, 95%", \
     "" using 1:6 with lines lw 2 lc rgb "red" title "kernel utime, with", \
     "" using 1:7 with lines lw 2 lc rgb "blue" title "randstat user, with", \
     "" using 1:10 with lines lw 2 lc rgb "black" title "true (iterations x calibration), with", \
     "" using 1:11 with lines lw 1 lc rgb "dark-green" title "runtime - softirq - hardirq (tracepoints), with", \
     "interf_without.dat" using 1:6 with lines lw 2 dt 2 lc rgb "red" title "kernel utime, without", \
     "" using 1:7 with lines lw 2 dt 2 lc rgb "blue" title "randstat user, without", \
     "" using 1:10 with lines lw 2 dt 2 lc rgb "black" title "true, without"
unset multiplot
}
