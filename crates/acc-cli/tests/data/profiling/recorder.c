/* A profiling library that prints one line per event on stderr, with the fields the tests
 * check: loaded through ACC_PROFLIB (built as a shared object) or linked into the program. */
#include <acc_prof.h>
#include <stdio.h>

static const char *const names[] = {
    "none", "device_init_start", "device_init_end", "device_shutdown_start",
    "device_shutdown_end", "runtime_shutdown", "create", "delete", "alloc", "free",
    "enter_data_start", "enter_data_end", "exit_data_start", "exit_data_end", "update_start",
    "update_end", "compute_construct_start", "compute_construct_end", "enqueue_launch_start",
    "enqueue_launch_end", "enqueue_upload_start", "enqueue_upload_end",
    "enqueue_download_start", "enqueue_download_end", "wait_start", "wait_end"};

static void record(acc_prof_info *p, acc_event_info *e, acc_api_info *api) {
  const char *file = p->src_file ? p->src_file : "-";
  const char *slash = file;
  for (const char *c = file; *c; c++)
    if (*c == '/') slash = c + 1;
  fprintf(stderr, "event %s line %d file %s version %d valid %d/%d device %d async %ld queue %ld",
          names[p->event_type], p->line_no, slash, p->version, p->valid_bytes,
          (int)sizeof(acc_prof_info), (int)p->device_type, p->async, p->async_queue);
  switch (p->event_type) {
  case acc_ev_create: case acc_ev_delete: case acc_ev_alloc: case acc_ev_free:
  case acc_ev_enqueue_upload_start: case acc_ev_enqueue_upload_end:
  case acc_ev_enqueue_download_start: case acc_ev_enqueue_download_end:
    fprintf(stderr, " var %s bytes %zu devptr %s implicit %d construct %d valid %d/%d",
            e->data_event.var_name ? e->data_event.var_name : "-", e->data_event.bytes,
            e->data_event.device_ptr ? "set" : "null", e->data_event.implicit,
            (int)e->data_event.parent_construct,
            e->data_event.valid_bytes, (int)sizeof(acc_data_event_info));
    break;
  case acc_ev_enqueue_launch_start: case acc_ev_enqueue_launch_end:
    fprintf(stderr, " kernel \"%s\" gangs %zu construct %d valid %d/%d",
            e->launch_event.kernel_name ? e->launch_event.kernel_name : "-",
            e->launch_event.num_gangs, (int)e->launch_event.parent_construct, e->launch_event.valid_bytes,
            (int)sizeof(acc_launch_event_info));
    break;
  default:
    fprintf(stderr, " construct %d valid %d/%d", (int)e->other_event.parent_construct,
            e->other_event.valid_bytes, (int)sizeof(acc_other_event_info));
  }
  fprintf(stderr, " func %s %d-%d end %d api %d", p->func_name ? p->func_name : "-",
          p->func_line_no, p->func_end_line_no, p->end_line_no, api ? (int)api->device_api : -1);
  if (api && api->device_api == acc_device_api_cuda)
    fprintf(stderr, " handles %d%d%d", api->device_handle != 0, api->context_handle != 0,
            api->async_handle != 0);
  fprintf(stderr, "\n");
}

/* A second callback on one event, to show the order of several: start events in the order
 * registered, end events in reverse. */
static void second(acc_prof_info *p, acc_event_info *e, acc_api_info *api) {
  (void)e, (void)api;
  fprintf(stderr, "second %d\n", (int)p->event_type);
}

void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup) {
  (void)unreg;
  for (int ev = acc_ev_device_init_start; ev < acc_ev_last; ev++) reg((acc_event_t)ev, record, acc_reg);
  reg(acc_ev_enter_data_start, second, acc_reg);
  reg(acc_ev_enter_data_end, second, acc_reg);
  if (!lookup("acc_prof_register") || lookup("no_such_routine"))
    fprintf(stderr, "lookup is wrong\n");
}
