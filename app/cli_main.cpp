// savepoint-cli: the headless front end. All logic lives in cli/cli_app.cpp.
#include "cli_app.h"

int main(int argc, char** argv) { return savepoint::run_cli(argc, argv); }
