//! mpi-jacobi-rs: the 2-D Jacobi solver of `examples/mpi-jacobi` in Rust, over MPI ranks with
//! rsmpi (the `mpi` crate on the system's Open MPI) and `#[acc::parallel]` kernels.
//!
//! Rank r owns a band of interior rows plus a ghost row above and below, kept on the device
//! in an [`acc::Mirror`]. Each iteration exchanges the edge rows with the neighbours —
//! device-aware (the default on the CPU devices): the device copy's addresses
//! (`Mirror::device_ptr_mut`, C's `host_data use_device`) to mpi-sys's raw `MPI_Sendrecv`, as
//! rsmpi's safe calls take host slices and a Rust slice must be memory the host can read;
//! staged (`JACOBI_MPI_AWARE=0`, the default on a GPU): `update_self_range` of the two owned
//! edge rows, rsmpi's `send_receive` of host slices, `update_device_range` of the two ghost
//! rows — runs the sweep (a max reduction of the change) and the copy-back, and every 10 iterations
//! combines the change over the ranks with `MPI_Allreduce(MPI_MAX)`. Each rank uses device
//! `local_rank % num_devices` of the current type, local_rank from
//! `MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`.
//!
//! Rank 0 gathers the field and prints its FNV-1a hash and the residual (in hex), so runs on
//! different numbers of ranks can be compared bit for bit; `--check` also runs the iterations
//! serially and exits 1 unless the field is equal bit for bit.
//!
//! Usage: `mpi-jacobi-rs [-n ROWS] [-m COLS] [-k ITERS] [--weak] [--check]`

// Kernels index slices by loop counter: that is what OpenACC loops look like.
#![allow(clippy::needless_range_loop)]

use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::point_to_point as p2p;
use mpi::traits::*;

const CHECK_EVERY: usize = 10;

/// One Jacobi sweep over the owned rows `1..=n`; returns the largest change.
#[acc::parallel(loop gang reduction(max:err))]
fn sweep(n: usize, cols: usize, a: &[f64], anew: &mut [f64]) -> f64 {
    let mut err = 0.0;
    for i in 1..n + 1 {
        #[acc(loop vector reduction(max:err))]
        for j in 1..cols - 1 {
            let v = 0.25
                * (a[i * cols + j + 1]
                    + a[i * cols + j - 1]
                    + a[(i - 1) * cols + j]
                    + a[(i + 1) * cols + j]);
            anew[i * cols + j] = v;
            err = f64::max(err, (v - a[i * cols + j]).abs());
        }
    }
    err
}

/// `a = anew` on the owned rows.
#[acc::parallel]
fn copy_back(n: usize, cols: usize, anew: &[f64], a: &mut [f64]) {
    #[acc(loop gang)]
    for i in 1..n + 1 {
        #[acc(loop vector)]
        for j in 1..cols - 1 {
            a[i * cols + j] = anew[i * cols + j];
        }
    }
}

/// The initial value of global row `gi` (0 and `rows + 1` are the boundary), column `j`: the
/// same as the C example's.
fn initial(gi: usize, j: usize, rows: usize, cols: usize) -> f64 {
    if gi == 0 {
        1.0
    } else if gi == rows + 1 || j == cols - 1 {
        0.0
    } else if j == 0 {
        0.5 * gi as f64 / (rows + 1) as f64
    } else {
        0.0
    }
}

/// Rank `r`'s band: (first owned global row, number of rows).
fn band(r: usize, size: usize, rows: usize) -> (usize, usize) {
    let (q, rem) = (rows / size, rows % size);
    (1 + r * q + r.min(rem), q + usize::from(r < rem))
}

fn fnv1a(v: &[f64]) -> u64 {
    v.iter()
        .flat_map(|x| x.to_ne_bytes())
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
}

fn serial(a: &mut [f64], rows: usize, cols: usize, iters: usize) {
    let mut anew = a.to_vec();
    for _ in 0..iters {
        for i in 1..=rows {
            for j in 1..cols - 1 {
                anew[i * cols + j] = 0.25
                    * (a[i * cols + j + 1]
                        + a[i * cols + j - 1]
                        + a[(i - 1) * cols + j]
                        + a[(i + 1) * cols + j]);
            }
        }
        for i in 1..=rows {
            a[i * cols + 1..(i + 1) * cols - 1]
                .copy_from_slice(&anew[i * cols + 1..(i + 1) * cols - 1]);
        }
    }
}

/// Whether MPI reads and writes device memory: `JACOBI_MPI_AWARE=0|1`, else yes on the CPU
/// devices (their device memory is this process's memory) and no on a GPU (Debian's Open MPI
/// is not CUDA-aware).
fn mpi_device_aware() -> bool {
    match std::env::var("JACOBI_MPI_AWARE") {
        Ok(v) if !v.is_empty() => v != "0",
        _ => acc::device_type() != acc::DeviceType::Nvidia,
    }
}

/// The halo exchange on device memory, as C's `host_data use_device`: the device copy's
/// addresses go to `MPI_Sendrecv` (rsmpi's safe calls take host slices, so this is mpi-sys's
/// raw call). Row 1 goes up while the bottom ghost row comes from below, then row n goes down
/// while the top ghost row comes from above.
fn exchange_on_device(
    world: &mpi::topology::SimpleCommunicator,
    u: &mut acc::Mirror<f64>,
    n: usize,
    cols: usize,
) {
    use mpi::ffi;
    use std::os::raw::{c_int, c_void};
    let (rank, size) = (world.rank(), world.size());
    // SAFETY: reading the constants mpi-sys defines for MPI's handles, after MPI_Init.
    let (proc_null, double, ignore) = unsafe {
        (
            ffi::RSMPI_PROC_NULL,
            ffi::RSMPI_DOUBLE,
            ffi::RSMPI_STATUS_IGNORE,
        )
    };
    let up = if rank > 0 { rank - 1 } else { proc_null };
    let down = if rank + 1 < size { rank + 1 } else { proc_null };
    let base = u.device_ptr_mut();
    let count = cols as c_int;
    // SAFETY: `base` is the device copy of the (n + 2) * cols doubles of `u`, which lives
    // across the calls; rows 1 and n are read and rows 0 and n + 1 written, `cols` doubles
    // each, all within it. The MPI is device-aware for this device (on the CPU devices the
    // device copy is this process's memory), no kernel runs meanwhile, and the calls are
    // blocking, so nothing touches the rows after they return.
    unsafe {
        ffi::MPI_Sendrecv(
            base.add(cols) as *const c_void,
            count,
            double,
            up,
            0,
            base.add((n + 1) * cols) as *mut c_void,
            count,
            double,
            down,
            0,
            world.as_raw(),
            ignore,
        );
        ffi::MPI_Sendrecv(
            base.add(n * cols) as *const c_void,
            count,
            double,
            down,
            1,
            base as *mut c_void,
            count,
            double,
            up,
            1,
            world.as_raw(),
            ignore,
        );
    }
}

/// The halo exchange staged through the host: the owned edge rows to the host, rsmpi's
/// send-receive of host slices, the ghost rows back to the device.
fn exchange_staged(
    world: &mpi::topology::SimpleCommunicator,
    u: &mut acc::Mirror<f64>,
    n: usize,
    cols: usize,
) {
    let (rank, size) = (world.rank(), world.size());
    let up = (rank > 0).then(|| world.process_at_rank(rank - 1));
    let down = (rank + 1 < size).then(|| world.process_at_rank(rank + 1));
    u.update_self_range(cols..2 * cols);
    u.update_self_range(n * cols..(n + 1) * cols);
    {
        let v = u.as_mut_slice();
        let (top, rest) = v.split_at_mut(cols);
        let (middle, bottom) = rest.split_at_mut(n * cols);
        let (first_row, last_row) = (&middle[..cols], &middle[(n - 1) * cols..]);
        // Row 1 goes up and the bottom ghost comes from below; then row n goes down and
        // the top ghost comes from above.
        match (&up, &down) {
            (Some(up), Some(down)) => {
                p2p::send_receive_into_with_tags(first_row, up, 0, bottom, down, 0);
                p2p::send_receive_into_with_tags(last_row, down, 1, top, up, 1);
            }
            (Some(up), None) => {
                up.send_with_tag(first_row, 0);
                up.receive_into_with_tag(top, 1);
            }
            (None, Some(down)) => {
                down.receive_into_with_tag(bottom, 0);
                down.send_with_tag(last_row, 1);
            }
            (None, None) => {}
        }
    }
    u.update_device_range(0..cols);
    u.update_device_range((n + 1) * cols..(n + 2) * cols);
}

struct Args {
    rows: usize,
    cols: usize,
    iters: usize,
    weak: bool,
    check: bool,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        rows: 256,
        cols: 256,
        iters: 100,
        weak: false,
        check: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut num = |name: &str| -> Result<usize, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match arg.as_str() {
            "-n" => a.rows = num("-n")?,
            "-m" => a.cols = num("-m")?,
            "-k" => a.iters = num("-k")?,
            "--weak" => a.weak = true,
            "--check" => a.check = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(a)
}

fn main() {
    let universe = mpi::initialize().expect("MPI is initialized once");
    let world = universe.world();
    let (rank, size) = (world.rank() as usize, world.size() as usize);
    let mut a = args().unwrap_or_else(|e| {
        eprintln!("mpi-jacobi-rs: {e}\nusage: mpi-jacobi-rs [-n ROWS] [-m COLS] [-k ITERS] [--weak] [--check]");
        world.abort(2)
    });
    if a.weak {
        a.rows *= size;
    }
    let Args {
        rows, cols, iters, ..
    } = a;
    if rows < size || cols < 3 {
        eprintln!("mpi-jacobi-rs: need at least one row per rank and three columns");
        world.abort(2);
    }

    // One device per rank among the ranks of this node.
    let local_rank = world.split_shared(rank as i32).rank() as usize;
    let ty = acc::device_type();
    let ndevices = acc::num_devices(ty);
    acc::set_device_num(local_rank % ndevices);
    let device = acc::device_num();

    let aware = mpi_device_aware();

    let (first, n) = band(rank, size, rows);
    let init: Vec<f64> = (0..(n + 2) * cols)
        .map(|k| initial(first - 1 + k / cols, k % cols, rows, cols))
        .collect();
    let mut u = acc::Mirror::new(init.clone());
    let mut unew = acc::Mirror::new(init);

    let mut residual = 0.0f64;
    let mut halo_time = 0.0;
    world.barrier();
    let t0 = mpi::time();
    for it in 0..iters {
        let th = mpi::time();
        if aware {
            exchange_on_device(&world, &mut u, n, cols);
        } else {
            exchange_staged(&world, &mut u, n, cols);
        }
        halo_time += mpi::time() - th;

        let err = sweep(n, cols, u.as_slice(), unew.as_mut_slice());
        copy_back(n, cols, unew.as_slice(), u.as_mut_slice());
        if (it + 1) % CHECK_EVERY == 0 || it + 1 == iters {
            world.all_reduce_into(&err, &mut residual, SystemOperation::max());
        }
    }
    let elapsed = mpi::time() - t0;
    assert_eq!(
        acc::device_num(),
        device,
        "the device chosen is the device used"
    );
    let field = u.into_vec();

    let root = world.process_at_rank(0);
    let mut slowest = [0.0f64; 2];
    let times = [elapsed, halo_time];
    let mut devices = vec![0i32; size];
    let owned = &field[cols..(n + 1) * cols];
    if rank == 0 {
        root.reduce_into_root(&times[..], &mut slowest[..], SystemOperation::max());
        root.gather_into_root(&(device as i32), &mut devices[..]);
        let mut all = vec![0.0f64; (rows + 2) * cols];
        let counts: Vec<i32> = (0..size)
            .map(|r| (band(r, size, rows).1 * cols) as i32)
            .collect();
        let displs: Vec<i32> = (0..size)
            .map(|r| (band(r, size, rows).0 * cols) as i32)
            .collect();
        {
            let mut part = PartitionMut::new(&mut all[..], counts, displs);
            root.gather_varcount_into_root(owned, &mut part);
        }
        for j in 0..cols {
            all[j] = initial(0, j, rows, cols);
            all[(rows + 1) * cols + j] = initial(rows + 1, j, rows, cols);
        }
        let per = |t: f64| {
            if iters > 0 {
                1e3 * t / iters as f64
            } else {
                0.0
            }
        };
        println!("ranks {size}");
        println!("device_type {ty:?} ({ndevices} on rank 0's node)");
        let list: Vec<String> = devices.iter().map(i32::to_string).collect();
        println!("device_per_rank {}", list.join(" "));
        println!(
            "mpi {}",
            if aware {
                "device-aware (Mirror::device_ptr to MPI_Sendrecv)"
            } else {
                "staged (Mirror::update_*_range)"
            }
        );
        println!("grid {rows} x {cols}");
        println!("iterations {iters}");
        println!("time_per_iteration_ms {:.4}", per(slowest[0]));
        println!("halo_time_per_iteration_ms {:.4}", per(slowest[1]));
        println!("halo_bytes_per_iteration {}", 2 * (size - 1) * cols * 8);
        println!("residual {residual:e} ({:016x})", residual.to_bits());
        println!("field {:016x}", fnv1a(&all));
        let mut status = 0;
        if a.check {
            let mut reference: Vec<f64> = (0..(rows + 2) * cols)
                .map(|k| initial(k / cols, k % cols, rows, cols))
                .collect();
            serial(&mut reference, rows, cols, iters);
            let bad: Vec<usize> = (0..all.len())
                .filter(|&k| all[k].to_bits() != reference[k].to_bits())
                .collect();
            for &k in bad.iter().take(5) {
                eprintln!(
                    "mpi-jacobi-rs: field[{}][{}] = {:e}, serial {:e}",
                    k / cols,
                    k % cols,
                    all[k],
                    reference[k]
                );
            }
            if bad.is_empty() {
                println!("check ok (bit for bit against the serial run)");
            } else {
                println!("check FAILED");
                status = 1;
            }
        }
        let mut s = status;
        root.broadcast_into(&mut s);
        drop(universe);
        std::process::exit(s);
    } else {
        root.reduce_into(&times[..], SystemOperation::max());
        root.gather_into(&(device as i32));
        root.gather_varcount_into(owned);
        let mut s = 0i32;
        root.broadcast_into(&mut s);
        drop(universe);
        std::process::exit(s);
    }
}
