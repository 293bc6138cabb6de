// Rust the device subset does not have is a compile error where it stands.
#[acc::parallel(copy(y))]
fn debug_print(y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        println!("{i}");
        y[i] = 0.0;
    }
}

#[acc::parallel(copyin(x) copy(y))]
fn collects(x: &[f64], y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        let v: Vec<f64> = Vec::new();
        y[i] = x[i] + v.len() as f64;
    }
}

#[acc::parallel(copyin(x))]
fn host_code_reads_device_data(x: &[f64]) -> f64 {
    let first = x[0];
    first
}

#[acc::parallel(copy(y))]
fn strings(y: &mut [u8]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] = "abc".len() as u8;
    }
}

fn main() {}
